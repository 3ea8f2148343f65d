package wire

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Extra is one family-specific part of a frame: its payload under Key, at
// the top level of the frame's JSON. Value is what was encoded (for
// in-process readers and tests); the bytes are encoded once by NewExtra and
// shared by every viewer. An Extra is immutable.
type Extra struct {
	Key   string
	Value any
	raw   []byte
}

// frameKeys are the keys a Frame writes itself, read off its JSON tags
// (and the spliced "predictive"), so a new field can never collide with an
// extra; an Extra may not use them.
var frameKeys = sync.OnceValue(func() []string {
	keys := []string{"predictive"}
	t := reflect.TypeFor[Frame]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
})

// NewExtra encodes v under key. It fails for a key the frame uses itself,
// a key that is not a plain lower-case name (so it needs no escaping), or a value encoding/json cannot encode.
func NewExtra(key string, v any) (*Extra, error) {
	if !plainKey(key) || slices.Contains(frameKeys(), key) {
		return nil, fmt.Errorf("wire: %q cannot name a frame extra (want [a-z0-9_]+, none of %v)", key, frameKeys())
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("wire: encoding extra %q: %w", key, err)
	}
	return &Extra{Key: key, Value: v, raw: raw}, nil
}

// MarshalJSON returns the bytes encoded by NewExtra.
func (e *Extra) MarshalJSON() ([]byte, error) { return e.raw, nil }

func plainKey(k string) bool {
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return k != ""
}
