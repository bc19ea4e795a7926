/**
 * Runnable examples of the Java API, one idea each, in the order of the README's tour: {@code Example01} audits a
 * claim, {@code Example02} scores computed elsewhere, {@code Example03} a Java mechanism as a black box,
 * {@code Example04} a paper's theorem, {@code Example05} a new mechanism family. Run one with
 * {@code java -cp examples/target/classes:$(cat examples/target/classpath) io.dpaudit.examples.Example01_AuditAClaim}
 * after {@code mvn -B -q install -DskipTests}, or from an IDE; {@code ExamplesTest} runs them all.
 */
package io.dpaudit.examples;
