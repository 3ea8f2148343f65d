package handlers

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

// Edited data in a link (edit=) and in a data command ({"op":"data",
// "edit":…}) are a delta against the page's data set, so that a few clicks
// make a short link and the data set's own points stay exact:
//
//	base64url (no padding) of
//	  byte 0      editVersion
//	  bytes 1–2   N, the data set's number of points, uint16 little-endian
//	  ⌈N/8⌉ bytes the removed points: bit i%8 of byte i/8 set when point i is gone
//	  8 bytes per added point: x and y as float32 little-endian, the user's units
//
// The points are the data set's kept points in order, then the added ones.
// A moved point is a removed one and an added one. Added points are float32
// so that the browser's points and the link's are the same numbers.
const (
	editVersion = 1
	// MaxEditAdded bounds the added (or moved) points of an encoded edit.
	MaxEditAdded = 200
	// MaxEditChars bounds an encoded edit's length: room for MaxEditAdded
	// points beside the removal bits of the largest upload (3 + 1,250 +
	// 1,600 bytes, 3,804 characters), and small enough that a data command
	// carrying it fits a viewer's message limit (StreamConfig.ReadLimit,
	// 4 KiB by default; TestDataEditFitsReadLimit).
	MaxEditChars = 4000
)

// editHeader is the fixed part of an edit: the version and N.
const editHeader = 3

// dataEdit is an edit decoded against no data set yet.
type dataEdit struct {
	baseN   int
	removed []bool
	x, y    []float32 // added points
}

// decodeEdit checks s's shape and bounds; every error names field.
func decodeEdit(field, s string) (dataEdit, error) {
	var e dataEdit
	bad := func(format string, args ...any) (dataEdit, error) {
		return dataEdit{}, &sim.FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
	}
	if len(s) > MaxEditChars {
		return bad("%d characters; an edit has at most %d", len(s), MaxEditChars)
	}
	for i := range len(s) { // the decoder skips newlines: an edit has none
		if c := s[i]; !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return bad("character %d (%q) is not base64url", i, c)
		}
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil {
		return bad("not an edit of the data (unpadded base64url): %v", err)
	}
	if len(b) < editHeader || b[0] != editVersion {
		return bad("not an edit of the data (version %d, from this playground's Copy link)", editVersion)
	}
	e.baseN = int(binary.LittleEndian.Uint16(b[1:3]))
	bits := (e.baseN + 7) / 8
	rest := b[editHeader:]
	if len(rest) < bits || (len(rest)-bits)%8 != 0 {
		return bad("truncated or padded: %d bytes after the header for %d data points", len(rest), e.baseN)
	}
	e.removed = make([]bool, e.baseN)
	for i := range e.baseN {
		e.removed[i] = rest[i/8]&(1<<(i%8)) != 0
	}
	if e.baseN%8 != 0 && bits > 0 && rest[bits-1]>>(e.baseN%8) != 0 {
		return bad("removes points beyond the data set's %d", e.baseN)
	}
	pts := rest[bits:]
	n := len(pts) / 8
	if n > MaxEditAdded {
		return bad("adds %d points; an edit adds at most %d", n, MaxEditAdded)
	}
	e.x, e.y = make([]float32, n), make([]float32, n)
	for i := range n {
		e.x[i] = math.Float32frombits(binary.LittleEndian.Uint32(pts[8*i:]))
		e.y[i] = math.Float32frombits(binary.LittleEndian.Uint32(pts[8*i+4:]))
	}
	return e, nil
}

// encode is decodeEdit's inverse.
func (e dataEdit) encode() string {
	bits := (e.baseN + 7) / 8
	b := make([]byte, editHeader+bits+8*len(e.x))
	b[0] = editVersion
	binary.LittleEndian.PutUint16(b[1:3], uint16(e.baseN))
	for i, r := range e.removed {
		if r {
			b[editHeader+i/8] |= 1 << (i % 8)
		}
	}
	p := b[editHeader+bits:]
	for i := range e.x {
		binary.LittleEndian.PutUint32(p[8*i:], math.Float32bits(e.x[i]))
		binary.LittleEndian.PutUint32(p[8*i+4:], math.Float32bits(e.y[i]))
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// points applies the edit to base, giving every point in the user's units.
func (e dataEdit) points(field string, base *sim.Dataset) (xu, yu []float64, err error) {
	if e.baseN != base.N() {
		return nil, nil, &sim.FieldError{Field: field, Message: fmt.Sprintf("an edit of a data set of %d points; this one has %d (same data set and seed as the link?)", e.baseN, base.N())}
	}
	user := func(v float64, a sim.Affine) float64 {
		if base.Task == sim.Classification {
			return v
		}
		return a.ToUser(v)
	}
	for i := range base.N() {
		if !e.removed[i] {
			xu = append(xu, base.XScale.ToUser(base.X[i]))
			yu = append(yu, user(base.Y[i], base.YScale))
		}
	}
	for i := range e.x {
		xu, yu = append(xu, float64(e.x[i])), append(yu, float64(e.y[i]))
	}
	return xu, yu, nil
}

// applyEdit decodes s and applies it to base: the edited data set, or a
// *sim.FieldError naming field.
func applyEdit(field, s string, base *sim.Dataset) (*sim.Dataset, error) {
	e, err := decodeEdit(field, s)
	if err != nil {
		return nil, err
	}
	xu, yu, err := e.points(field, base)
	if err != nil {
		return nil, err
	}
	d, err := datasets.Edit(base, xu, yu)
	if fe, ok := err.(*sim.FieldError); ok {
		fe.Field = field
	}
	return d, err
}
