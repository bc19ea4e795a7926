/** Where dp-audit writes: refusing, before anything is written, output paths that are not regular files or new names. */
package io.dpaudit.runner.output;
