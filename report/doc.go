// Package report writes what check and fuzz found for machines: JSON Lines
// (one object per trace or failure: oracle, event, diff, reproduce
// command, saved and shrunk traces) and JUnit XML (one testcase per trace
// or failing seed, the reproduce command in the failure message) in the
// shape of the Ant JUnit schema that CI systems read.
package report
