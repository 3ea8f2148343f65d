package stan

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Error is a parse, compile or domain error in a density's text. Line and
// Col (both from 1, Col counting characters) point at the character the
// error is about, and Error prints them first, as compilers do:
// "1:14: unknown function "nromal"; did you mean "normal"?".
type Error struct {
	Line, Col int
	Offset    int // byte offset of the character in the source
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// errorAt builds an Error at byte offset off of src.
func errorAt(src string, off int, format string, args ...any) *Error {
	if off > len(src) {
		off = len(src)
	}
	line, col := 1, 1
	for _, r := range src[:off] {
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &Error{Line: line, Col: col, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNum
	tPunct // one of ( ) [ ] , ; | ~ + - * / ^ and "+="
)

type token struct {
	kind tokKind
	pos  int    // byte offset of the token's first character
	text string // the token as written
	num  float64
}

// lex splits src into tokens, dropping white space and comments (// to the
// end of the line, /* … */, and # to the end of the line as in older Stan).
func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '#' || (c == '/' && i+1 < len(src) && src[i+1] == '/'):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := indexFrom(src, i+2, "*/")
			if end < 0 {
				return nil, errorAt(src, i, "comment opened here is never closed with */")
			}
			i = end + 2
		case isLetter(c):
			j := i + 1
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			toks = append(toks, token{kind: tIdent, pos: i, text: src[i:j]})
			i = j
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			j := scanNumber(src, i)
			v, err := strconv.ParseFloat(src[i:j], 64)
			if err != nil {
				return nil, errorAt(src, i, "number %s is out of range", src[i:j])
			}
			toks = append(toks, token{kind: tNum, pos: i, text: src[i:j], num: v})
			i = j
		case c == '+' && i+1 < len(src) && src[i+1] == '=':
			toks = append(toks, token{kind: tPunct, pos: i, text: "+="})
			i += 2
		case isPunct(c):
			toks = append(toks, token{kind: tPunct, pos: i, text: src[i : i+1]})
			i++
		default:
			r, _ := utf8.DecodeRuneInString(src[i:])
			return nil, errorAt(src, i, "unexpected character %q", r)
		}
	}
	return append(toks, token{kind: tEOF, pos: len(src)}), nil
}

// scanNumber returns the end of the numeric literal starting at i:
// digits, an optional fraction and an optional exponent, as Stan writes them.
func scanNumber(src string, i int) int {
	digits := func(j int) int {
		for j < len(src) && isDigit(src[j]) {
			j++
		}
		return j
	}
	j := digits(i)
	if j < len(src) && src[j] == '.' {
		j = digits(j + 1)
	}
	if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < len(src) && isDigit(src[k]) {
			j = digits(k)
		}
	}
	return j
}

func indexFrom(s string, from int, sub string) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func isLetter(c byte) bool { return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isPunct(c byte) bool {
	switch c {
	case '(', ')', '[', ']', ',', ';', '|', '~', '+', '-', '*', '/', '^':
		return true
	}
	return false
}
