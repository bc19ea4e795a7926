package io.dpaudit.core.bounds;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;

/**
 * An accountant cannot certify any finite ε at the requested δ within its numerical precision (for example, δ below
 * the PLD accountant's round-off floor). A one-line message names the δ, the limit and what to use instead; it is
 * bad input from the command line's point of view (exit code 2), never a wrong number.
 */
public final class AccountingLimitException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    /**
     * A bound that cannot be computed at these parameters: {@code field = value: rule}, one line.
     */
    public AccountingLimitException(String field, String value, String rule) {
        super(field, value, rule);
    }

    /**
     * An accountant's numerical limit: δ below what it can certify for this event.
     *
     * @param accountant the accountant's name ({@code pld}, {@code rdp})
     * @param delta the δ asked for
     * @param limit the smallest δ it can certify here
     * @param advice what to use instead
     */
    public AccountingLimitException(String accountant, double delta, double limit, String advice) {
        super("delta", Checks.format(delta), "below the " + accountant + " accountant's numerical limit "
                + Checks.format(limit) + " for this event; " + advice);
    }
}
