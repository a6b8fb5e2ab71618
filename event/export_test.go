package event

// CheckJSON exposes the syntax checker to the fuzz tests.
func CheckJSON(b []byte) error {
	if err := checkJSON(b); err != nil {
		return err
	}
	return nil
}

// Unquote exposes the string decoder to the fuzz tests.
func Unquote(body []byte) string { return unquote(body) }
