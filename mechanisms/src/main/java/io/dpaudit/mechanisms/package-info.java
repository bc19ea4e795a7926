/**
 * The mechanism catalog: one line per family package ({@code gaussian}, {@code participation}, {@code dpfed},
 * {@code shuffle}), each exposing its {@link io.dpaudit.core.model.MechanismType}s.
 */
package io.dpaudit.mechanisms;
