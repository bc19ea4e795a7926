package io.dpaudit.runner.scores;

import java.io.Closeable;
import java.io.IOException;

/**
 * Scores read one at a time from a file, in file order. A malformed entry stops the reading with an
 * {@link io.dpaudit.core.InvalidInputException} that names the file and the line (or element).
 */
interface ScoreReader extends Closeable {
    /** Advances to the next score; false at the end of the file. */
    boolean next() throws IOException;

    /** The current score: finite or +-infinity, never NaN. */
    double value();

    /** Where the current score is, for messages: {@code line 17} or {@code element 17}. */
    String position();
}
