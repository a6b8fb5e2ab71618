package fault_test

import (
	"fmt"

	"github.com/toolsim/toolsim/fault"
)

// Parse reads the fault lists of flags, options and trace headers: "all",
// "none", or names joined by commas. An unknown name is an error that
// lists the valid ones.
func ExampleParse() {
	l, err := fault.Parse("order,missing-result,torn")
	fmt.Println(l, err)
	fmt.Println("log faults:", l.Log())
	none, _ := fault.Parse("none")
	fmt.Println(len(none), len(fault.All()) == len(fault.Trace)+len(fault.Log))
	_, err = fault.Parse("order,typo")
	fmt.Println(err != nil)
	// Output:
	// order,missing-result,torn <nil>
	// log faults: torn
	// 0 true
	// true
}
