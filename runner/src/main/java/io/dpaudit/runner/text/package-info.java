/** Number formats shared by the analysis's notes and the report writers. */
package io.dpaudit.runner.text;
