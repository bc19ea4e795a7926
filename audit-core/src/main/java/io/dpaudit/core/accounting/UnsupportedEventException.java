package io.dpaudit.core.accounting;

import io.dpaudit.core.InvalidInputException;

/** An accountant cannot handle an event; the message names the accountant, the sub-event and why. */
public final class UnsupportedEventException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UnsupportedEventException(String accountant, DpEvent event, String reason) {
        super(accountant + " accountant does not support " + event.describe() + ": " + reason);
    }

    /** The same message as bad user input (for the command line). */
    public InvalidInputException asInput(String field) {
        return new InvalidInputException(field, "event", getMessage());
    }
}
