package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"github.com/posterior-playground/playground/sim"
)

// Request bodies and stream messages are read strictly: one JSON object,
// no unknown field, no key twice in an object, and every decoding error a
// *sim.FieldError that names the field (a control by its name) and the
// kind of value wanted in words, never a Go type.

const maxJSONBody = 64 << 10

// decodeJSON reads one JSON object into v, rejecting bodies over
// maxJSONBody, duplicate keys, unknown fields and trailing data with a
// *sim.FieldError. allowed lists the fields for the unknown-field message.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any, allowed string) error {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
	if err != nil {
		return jsonFieldError(err, allowed)
	}
	if err := checkDuplicateKeys(b); err != nil {
		return err
	}
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) { // encoding/json would read it as {}
		return &sim.FieldError{Field: "body", Message: "want a JSON object, got null"}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonFieldError(err, allowed)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &sim.FieldError{Field: "body", Message: "want a single JSON object, found more after it"}
	}
	return nil
}

// checkDuplicateKeys returns a *sim.FieldError naming the first key that
// appears twice in one object of b, where encoding/json would silently keep
// the last. Keys are compared as encoding/json matches them to struct
// fields, ignoring case. Malformed JSON is left to the decoder to report.
func checkDuplicateKeys(b []byte) error {
	type container struct {
		object  bool
		wantKey bool                // an object's next string is a key
		keys    map[string]struct{} // folded
	}
	var stack []container
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // no float parsing: only the structure matters here
	for {
		t, err := dec.Token()
		if err != nil {
			return nil // the end, or malformed
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, container{object: t == json.Delim('{'), wantKey: true})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		default:
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
				top := &stack[n-1]
				top.wantKey = false
				key, _ := t.(string)
				k := foldKey(key)
				if top.keys == nil {
					top.keys = map[string]struct{}{}
				}
				if _, dup := top.keys[k]; dup {
					field := key
					if field == "" {
						field = "body"
					}
					return &sim.FieldError{Field: field, Message: fmt.Sprintf("key %q appears twice in one object (keys differing only in case count as the same)", key)}
				}
				top.keys[k] = struct{}{}
				continue
			}
		}
		if n := len(stack); n > 0 && stack[n-1].object { // a member's value ended
			stack[n-1].wantKey = true
		} else if n == 0 {
			return nil // the top-level value ended; trailing data is the decoder's to refuse
		}
	}
}

// foldKey maps s to one representative of its case-folding orbit per rune,
// so that foldKey(a) == foldKey(b) exactly when strings.EqualFold(a, b),
// the rule encoding/json matches keys to fields by.
func foldKey(s string) string {
	return strings.Map(func(r rune) rune {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		return m
	}, s)
}

// jsonFieldError names the field a decoding error is about, and the kind of
// value wanted, in words.
func jsonFieldError(err error, allowed string) error {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
		big *http.MaxBytesError
	)
	switch {
	case errors.Is(err, io.EOF):
		return &sim.FieldError{Field: "body", Message: "empty; want a JSON object"}
	case errors.As(err, &syn):
		return &sim.FieldError{Field: "body", Message: fmt.Sprintf("malformed JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))}
	case errors.As(err, &typ):
		field := typ.Field
		if name, ok := strings.CutPrefix(field, "controls."); ok { // a control: by its name
			field = name
		}
		if field == "" {
			field = "body"
		}
		if n, ok := strings.CutPrefix(typ.Value, "number "); ok && (typ.Type == reflect.TypeFor[sim.Value]() || typ.Type.Kind() == reflect.Float64) {
			return &sim.FieldError{Field: field, Message: fmt.Sprintf("%s is beyond the range of a double-precision number", n)}
		}
		return &sim.FieldError{Field: field, Message: fmt.Sprintf("want %s, got %s", kindWanted(typ.Type), kindGot(typ.Value))}
	case errors.As(err, &big):
		return &sim.FieldError{Field: "body", Message: fmt.Sprintf("larger than the limit of %d bytes", big.Limit)}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		quoted := strings.TrimPrefix(err.Error(), "json: unknown field ")
		name, uerr := strconv.Unquote(quoted)
		if uerr != nil || name == "" { // a key "" must still name a field
			return &sim.FieldError{Field: "body", Message: "unknown field " + quoted + " (allowed: " + allowed + ")"}
		}
		return &sim.FieldError{Field: name, Message: "unknown field (allowed: " + allowed + ")"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &sim.FieldError{Field: "body", Message: "malformed JSON: it ends too early"}
	}
	return &sim.FieldError{Field: "body", Message: "malformed JSON: " + strings.TrimPrefix(err.Error(), "json: ")}
}

// kindWanted says in words what a value of Go type t must be in JSON.
func kindWanted(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[sim.Value]():
		return "a number, or one of a choice control's options as a string"
	case reflect.TypeFor[sim.Controls]():
		return `an object of controls, such as {"lr": 0.01}`
	}
	switch t.Kind() {
	case reflect.Pointer:
		return kindWanted(t.Elem())
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprintf("a whole number in [0, %d]", uint64(math.MaxUint64)>>(64-t.Bits()))
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct, reflect.Map:
		return "a JSON object"
	case reflect.Slice, reflect.Array:
		return "a JSON array"
	}
	return "another kind of value"
}

// kindGot says in words what encoding/json found ("number 1.5", "bool", …).
func kindGot(v string) string {
	switch v {
	case "null":
		return "null"
	case "bool":
		return "true or false"
	case "array":
		return "an array"
	case "object":
		return "an object"
	case "string":
		return "a string"
	case "number":
		return "a number"
	}
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return "the number " + n
	}
	return v
}
