/**
 * JUnit 5 assertions for a DP library's own tests: {@link io.dpaudit.junit.DpAssert#assertThat} audits a mechanism
 * as a black box and fails with the empirical bound, its confidence, the certifying test and the seed.
 */
package io.dpaudit.junit;
