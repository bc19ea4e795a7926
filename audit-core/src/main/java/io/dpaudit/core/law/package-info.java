/**
 * Exact laws of mechanisms' per-round sufficient statistics: the {@link io.dpaudit.core.law.StatisticLaw} contract,
 * Gaussian mixtures with a common isotropic standard deviation (additive-noise mechanisms) and discrete laws on
 * finite sets of atoms (local randomizers, shuffling, check-ins). Depends on numerics only.
 */
package io.dpaudit.core.law;
