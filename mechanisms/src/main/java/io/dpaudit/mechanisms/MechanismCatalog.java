package io.dpaudit.mechanisms;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismType;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.batching.BatchingMechanisms;
import io.dpaudit.mechanisms.checkin.CheckInMechanisms;
import io.dpaudit.mechanisms.dpfed.DpFedMechanisms;
import io.dpaudit.mechanisms.gaussian.GaussianMechanisms;
import io.dpaudit.mechanisms.noisysgd.NoisySgdMechanisms;
import io.dpaudit.mechanisms.participation.ParticipationMechanisms;
import io.dpaudit.mechanisms.prifedsync.PriFedSyncMechanisms;
import io.dpaudit.mechanisms.shuffle.ShuffleMechanisms;
import io.dpaudit.mechanisms.zoo.ZooMechanisms;
import java.util.List;
import java.util.stream.Stream;

/**
 * The mechanism types dp-audit knows, by scenario type name: one line per family, in a fixed order. A family is a
 * package that exposes its {@link MechanismType}s; registering a new one is one more line here.
 */
public final class MechanismCatalog {
    private static final List<MechanismType> TYPES = Stream.of(
            GaussianMechanisms.types(),
            ParticipationMechanisms.types(),
            DpFedMechanisms.types(),
            ShuffleMechanisms.types(),
            CheckInMechanisms.types(),
            PriFedSyncMechanisms.types(),
            ZooMechanisms.types(),
            BatchingMechanisms.types(),
            NoisySgdMechanisms.types())
            .flatMap(List::stream).toList();

    private MechanismCatalog() {
    }

    /** All known types, in catalog order. */
    public static List<MechanismType> types() {
        return TYPES;
    }

    /** The type named {@code type}, or null. */
    public static MechanismType find(String type) {
        return TYPES.stream().filter(t -> t.type().equals(type)).findFirst().orElse(null);
    }

    /**
     * Builds the mechanism named by the {@code type} parameter.
     *
     * @throws InvalidInputException for an unknown type or invalid parameters
     */
    public static AuditableMechanism parse(Parameters parameters) {
        String type = parameters.text("type", null);
        if (type == null) {
            throw InvalidInputException.missing(parameters.field("type"));
        }
        MechanismType t = find(type);
        if (t == null) {
            throw new InvalidInputException(parameters.field("type"), type, "unknown mechanism type (known: "
                    + String.join(", ", TYPES.stream().map(MechanismType::type).toList()) + ")");
        }
        return t.parser().apply(parameters);
    }
}
