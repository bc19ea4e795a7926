/** Non-finite numbers in JSON: written as the strings inf, -inf and nan, and read back. */
package io.dpaudit.runner.json;
