package io.dpaudit.reports.cli;

/** Wrong command-line usage: exit code 2 with a one-line message. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
