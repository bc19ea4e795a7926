package io.dpaudit.reports.cli;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.ToolInfo;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.reports.report.Provenance;
import io.dpaudit.reports.report.ReportFiles;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.checkpoint.Checkpoint;
import io.dpaudit.runner.engine.EngineProvider;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import picocli.CommandLine.Option;

/**
 * The options of {@code dp-audit run} that say where the trials run and where their state is kept: the engine
 * (local, or Spark found on the class path) and the checkpoint (local engine, one scenario).
 */
final class EngineOptions {
    @Option(names = "--checkpoint", paramLabel = "FILE", description = "write the counts of completed shards to FILE "
            + "every few seconds (local engine, one scenario)")
    String checkpoint;
    @Option(names = "--resume", paramLabel = "FILE", description = "go on from the checkpoint in FILE (the same "
            + "scenario, seed, trials and version); keeps checkpointing there unless --checkpoint names another file")
    String resume;
    @Option(names = "--engine", paramLabel = "local|spark", description = "where the trials run (local)")
    String engineName;
    @Option(names = "--master", paramLabel = "URL", description = "the Spark master (--engine spark; default: the "
            + "spark-submit configuration, else local[*])")
    String master;
    @Option(names = "--partitions", paramLabel = "P", description = "Spark tasks per phase (--engine spark)")
    String partitions;

    /** Whether the trials run on Spark; refuses an unknown engine and Spark options without it. */
    boolean spark() {
        String engine = engineName == null ? "local" : engineName;
        if (!engine.equals("local") && !engine.equals("spark")) {
            throw new InvalidInputException("--engine", engine, "must be local or spark");
        }
        if (!engine.equals("spark") && (master != null || partitions != null)) {
            throw new InvalidInputException(master != null ? "--master" : "--partitions", master != null ? master
                    : partitions, "applies to --engine spark");
        }
        return engine.equals("spark");
    }

    /** Refuses a checkpoint for a run of several scenarios, or on Spark. */
    void refuseCheckpoint(String where) {
        if (checkpoint != null || resume != null) {
            throw new InvalidInputException(checkpoint != null ? "--checkpoint" : "--resume",
                    checkpoint != null ? checkpoint : resume, "applies to " + where);
        }
    }

    /** Registers the checkpoint files with the guard: neither may be a scenario file or a report file. */
    void guard(OutputPaths guard) {
        if (checkpoint != null) {
            guard.refuseFile("--checkpoint", Path.of(checkpoint));
        }
        if (resume != null) {
            guard.refuseFile("--resume", Path.of(resume));
        }
        if (checkpoint != null) {
            guard.input("checkpoint", Path.of(checkpoint));
        }
        if (resume != null) {
            guard.input("resumed checkpoint", Path.of(resume));
        }
    }

    /** The checkpoint store of {@code --checkpoint} / {@code --resume}, or null. */
    Checkpoint store(long seed, long trials, Stopping stopping, byte[] scenarioBytes) {
        if (checkpoint == null && resume == null) {
            return null;
        }
        Checkpoint.Identity id = new Checkpoint.Identity(ToolInfo.version(),
                Provenance.sha256(scenarioBytes == null ? new byte[0] : scenarioBytes), seed, trials,
                stopping.describe());
        Path target = Path.of(checkpoint != null ? checkpoint : resume);
        ReportFiles.checkDirectory(checkpoint != null ? "--checkpoint" : "--resume", target.toAbsolutePath()
                .getParent());
        if (Files.isDirectory(target)) {
            throw new InvalidInputException(checkpoint != null ? "--checkpoint" : "--resume", target,
                    "is a directory");
        }
        return resume != null ? Checkpoint.resume("--resume", Path.of(resume), id, target)
                : Checkpoint.create(target, id);
    }

    /** The Spark engine, found on the class path (the dp-audit-spark jar), or a one-line refusal. */
    EngineProvider.Session sparkSession(ScenarioAudit.Prepared prepared, byte[] scenarioBytes, boolean quiet,
            PrintStream err) {
        int p = partitions == null ? 0 : (int) Math.min(1 << 20, Checks.atLeast("--partitions",
                OptionValues.wholeNumber("--partitions", partitions), 1));
        for (EngineProvider provider : ServiceLoader.load(EngineProvider.class)) {
            if (provider.name().equals("spark")) {
                return provider.open(prepared, new String(scenarioBytes, StandardCharsets.UTF_8), master, p,
                        quiet ? ProgressListener.NONE : ConsoleProgress.forStandardError(err));
            }
        }
        throw new InvalidInputException("--engine", "spark", "the Spark runner is not on the class path: submit the "
                + "dp-audit-spark jar with spark-submit (see the README, \"Spark\")");
    }
}
