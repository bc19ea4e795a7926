/** Reading the files a user hands to dp-audit (scenarios, checkpoints, reports to compare) as untrusted input. */
package io.dpaudit.runner.input;
