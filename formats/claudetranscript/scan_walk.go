package claudetranscript

// walkObject validates the object at b[i] == '{', calling fn (when not nil)
// with each member's raw key (between the quotes) and raw value. With a
// negative depth the object was validated before and is only walked.
func walkObject(b []byte, i, depth int, fn func(key, val []byte)) (int, error) {
	if depth > maxDepth {
		return i, errAt(i, "nesting deeper than %d", maxDepth)
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(b) {
			return i, errEOF(i)
		}
		ve, err := walkMember(b, i, depth, fn)
		if err != nil {
			return ve, err
		}
		i = skipWS(b, ve)
		if i >= len(b) {
			return i, errEOF(i)
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return i + 1, nil
		default:
			return i, errAt(i, "invalid character %q after an object member", b[i])
		}
	}
}

// walkMember validates the object member whose key starts at b[i],
// calling fn (when not nil) with its raw key and raw value, and returns
// the index after the value (depth as for walkObject).
func walkMember(b []byte, i, depth int, fn func(key, val []byte)) (int, error) {
	if b[i] != '"' {
		return i, errAt(i, "invalid character %q looking for an object key", b[i])
	}
	ks := i
	ke, err := skipKey(b, i, depth)
	if err != nil {
		return ke, err
	}
	i = skipWS(b, ke)
	if i >= len(b) {
		return i, errEOF(i)
	}
	if b[i] != ':' {
		return i, errAt(i, "invalid character %q after an object key", b[i])
	}
	vs := skipWS(b, i+1)
	ve, err := skipValue(b, vs, depth)
	if err != nil {
		return ve, err
	}
	if fn != nil {
		fn(b[ks+1:ke-1], b[vs:ve])
	}
	return ve, nil
}

// walkArray validates the array at b[i] == '[', calling fn (when not nil)
// with each element's raw value (depth as for walkObject).
func walkArray(b []byte, i, depth int, fn func(val []byte)) (int, error) {
	if depth > maxDepth {
		return i, errAt(i, "nesting deeper than %d", maxDepth)
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		vs := skipWS(b, i)
		ve, err := skipValue(b, vs, depth)
		if err != nil {
			return ve, err
		}
		if fn != nil {
			fn(b[vs:ve])
		}
		i = skipWS(b, ve)
		if i >= len(b) {
			return i, errEOF(i)
		}
		switch b[i] {
		case ',':
			i++
		case ']':
			return i + 1, nil
		default:
			return i, errAt(i, "invalid character %q after an array element", b[i])
		}
	}
}

// skipKey returns the index after the object key starting at b[i],
// validating it unless depth marks a validated value.
func skipKey(b []byte, i, depth int) (int, error) {
	if depth < 0 {
		return trustedString(b, i)
	}
	return skipString(b, i)
}

// topObject validates a whole line holding one JSON object and calls fn for
// each member. Members seen before an error have been passed to fn.
func topObject(line []byte, fn func(key, val []byte)) error {
	i := skipWS(line, 0)
	if i >= len(line) {
		return errEOF(i)
	}
	if line[i] != '{' {
		return errAt(i, "want a JSON object, got %q", line[i])
	}
	end, err := walkObject(line, i, 1, fn)
	if err != nil {
		return err
	}
	if j := skipWS(line, end); j < len(line) {
		return errAt(j, "invalid character %q after the top-level object", line[j])
	}
	return nil
}

// members calls fn for each member of val when it is an object (already
// validated by the walk that produced it); other values are ignored.
func members(val []byte, fn func(key, val []byte)) {
	if len(val) > 0 && val[0] == '{' {
		_, _ = walkObject(val, 0, -1, fn) // validated by the walk that produced val
	}
}

// elems calls fn for each element of val when it is an array.
func elems(val []byte, fn func(val []byte)) {
	if len(val) > 0 && val[0] == '[' {
		_, _ = walkArray(val, 0, -1, fn) // validated by the walk that produced val
	}
}
