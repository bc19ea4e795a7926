package io.dpaudit.core.accounting;

import io.dpaudit.core.InvalidInputException;

/** An accountant cannot handle an event; the message names the accountant, the sub-event and why. */
public final class UnsupportedEventException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** Why, naming the sub-event. */
    private final String reason;

    UnsupportedEventException(String accountant, DpEvent event, String reason) {
        super(accountant + " accountant does not support " + event.describe() + ": " + reason);
        this.reason = reason;
    }

    /** The reason alone (without the accountant's name and the event). */
    public String reason() {
        return reason;
    }

    /** The same message as bad user input (for the command line). */
    public InvalidInputException asInput(String field) {
        return new InvalidInputException(field, "event", getMessage());
    }
}
