/**
 * Lower bounds on ε from one training run with canaries inserted by fair coins (Steinke, Nasr &amp; Jagielski 2023;
 * f-DP, Mahloujifar et al. 2024).
 */
package io.dpaudit.core.estimate.onerun;
