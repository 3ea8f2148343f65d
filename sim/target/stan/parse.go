package stan

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits on a density's text. They keep a typed density's compile time and
// evaluation cost bounded whatever is pasted into the box.
const (
	MaxChars = 2000 // characters of source
	MaxDepth = 64   // nesting of an expression: parentheses, calls, operators
	MaxNodes = 1000 // numbers, names, operators and calls in the whole text
)

// node is a node of the syntax tree.
type node struct {
	op   opcode
	pos  int     // byte offset of the token the node is about
	val  float64 // opConst: the number; opParam: the parameter's index
	args []*node
}

// statement is one contribution to the log density: the tree of a sampling
// statement (its distribution's lpdf with the variate as first argument)
// or of target += expr.
type statement struct {
	pos  int
	expr *node
}

// boxStmt is "name in [lo, hi];".
type boxStmt struct {
	pos    int
	param  int
	lo, hi *node
}

type syntax struct {
	params [2]string
	stmts  []statement
	boxes  []boxStmt
}

type parser struct {
	src    string
	toks   []token
	i      int
	depth  int
	nodes  int
	params []string
}

func parse(src string) (*syntax, error) {
	if n := utf8.RuneCountInString(src); n > MaxChars {
		off := 0
		for range MaxChars {
			_, size := utf8.DecodeRuneInString(src[off:])
			off += size
		}
		return nil, errorAt(src, off, "the text is %d characters long; at most %d are allowed", n, MaxChars)
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: toks}
	var s syntax
	for p.peek().kind != tEOF {
		if err := p.statement(&s); err != nil {
			return nil, err
		}
	}
	if len(s.stmts) == 0 {
		return nil, errorAt(src, len(src), "no statements: write a sampling statement (x ~ normal(0, 1);) or target += …;")
	}
	switch len(p.params) {
	case 0:
		return nil, errorAt(src, s.stmts[0].pos, "the density uses no parameters; it needs two, e.g. x and y")
	case 1:
		return nil, errorAt(src, s.stmts[0].pos, "the density uses one parameter, %q; it needs two", p.params[0])
	}
	copy(s.params[:], p.params)
	return &s, nil
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token { t := p.toks[p.i]; p.i++; return t }

func (p *parser) is(text string) bool {
	t := p.peek()
	return (t.kind == tPunct || t.kind == tIdent) && t.text == text
}

func (p *parser) expect(text, context string) error {
	if p.is(text) {
		p.i++
		return nil
	}
	return p.errorf(p.peek(), "expected %q %s, found %s", text, context, describe(p.peek()))
}

func (p *parser) errorf(t token, format string, args ...any) error {
	return errorAt(p.src, t.pos, format, args...)
}

func describe(t token) string {
	if t.kind == tEOF {
		return "the end of the text"
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) newNode(op opcode, pos int, val float64, args ...*node) (*node, error) {
	p.nodes++
	if p.nodes > MaxNodes {
		return nil, errorAt(p.src, pos, "the density has more than %d nodes (numbers, names, operators and calls)", MaxNodes)
	}
	return &node{op: op, pos: pos, val: val, args: args}, nil
}

// statement parses one of
//
//	target += expr;
//	expr ~ dist(args);
//	name in [lo, hi];
func (p *parser) statement(s *syntax) error {
	start := p.peek()
	if start.kind == tIdent && start.text == "target" && p.toks[p.i+1].text == "+=" {
		p.i += 2
		e, err := p.expr()
		if err != nil {
			return err
		}
		s.stmts = append(s.stmts, statement{pos: start.pos, expr: e})
		return p.expect(";", "after the expression")
	}
	lhs, err := p.expr()
	if err != nil {
		return err
	}
	switch {
	case p.is("~"):
		p.i++
		d, err := p.sampling(lhs)
		if err != nil {
			return err
		}
		s.stmts = append(s.stmts, statement{pos: start.pos, expr: d})
		return p.expect(";", "after the sampling statement")
	case p.is("in") && lhs.op == opParam:
		p.i++
		b := boxStmt{pos: start.pos, param: int(lhs.val)}
		if err := p.expect("[", "after in"); err != nil {
			return err
		}
		if b.lo, err = p.expr(); err != nil {
			return err
		}
		if err := p.expect(",", "between the bounds"); err != nil {
			return err
		}
		if b.hi, err = p.expr(); err != nil {
			return err
		}
		if err := p.expect("]", "after the bounds"); err != nil {
			return err
		}
		s.boxes = append(s.boxes, b)
		return p.expect(";", "after the box")
	}
	return p.errorf(p.peek(), "expected \"~\" after the expression (or write target += …), found %s", describe(p.peek()))
}

// sampling parses "dist(args)" after "~" into the distribution's lpdf node.
func (p *parser) sampling(y *node) (*node, error) {
	t := p.next()
	if t.kind != tIdent {
		return nil, p.errorf(t, "expected a distribution after \"~\", found %s", describe(t))
	}
	d, ok := distributions[t.text]
	if !ok {
		return nil, p.unknown(t, "distribution", distributionNames())
	}
	if err := p.expect("(", "after the distribution's name"); err != nil {
		return nil, err
	}
	args, err := p.args(")")
	if err != nil {
		return nil, err
	}
	if len(args) != len(d.params) {
		return nil, p.errorf(t, "%s takes %d parameters (%s), got %d", t.text, len(d.params), strings.Join(d.params, ", "), len(args))
	}
	return p.newNode(d.op, t.pos, 0, append([]*node{y}, args...)...)
}

func (p *parser) unknown(t token, what string, candidates []string) error {
	if s, ok := suggest(t.text, candidates); ok {
		return p.errorf(t, "unknown %s %q; did you mean %q?", what, t.text, s)
	}
	return p.errorf(t, "unknown %s %q", what, t.text)
}

// args parses comma-separated expressions up to and including close.
func (p *parser) args(close string) ([]*node, error) {
	var args []*node
	if p.is(close) {
		p.i++
		return args, nil
	}
	for {
		a, err := p.expr()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
		if p.is(close) {
			p.i++
			return args, nil
		}
		if err := p.expect(",", "between arguments"); err != nil {
			return nil, err
		}
	}
}

var (
	addOps = map[string]opcode{"+": opAdd, "-": opSub}
	mulOps = map[string]opcode{"*": opMul, "/": opDiv}
)

// expr parses sums and differences of products and quotients.
func (p *parser) expr() (*node, error) {
	return p.binary(p.term, addOps)
}

func (p *parser) term() (*node, error) {
	return p.binary(p.unary, mulOps)
}

// binary parses a left-associative chain of operands joined by ops.
func (p *parser) binary(operand func() (*node, error), ops map[string]opcode) (*node, error) {
	left, err := operand()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		op, ok := ops[t.text]
		if t.kind != tPunct || !ok {
			return left, nil
		}
		p.i++
		right, err := operand()
		if err != nil {
			return nil, err
		}
		if left, err = p.newNode(op, t.pos, 0, left, right); err != nil {
			return nil, err
		}
	}
}

// unary parses a signed power. As in Stan, ^ binds tighter than unary
// minus (-x^2 is -(x^2)) and is right-associative (a^b^c is a^(b^c)).
func (p *parser) unary() (*node, error) {
	p.depth++
	defer func() { p.depth-- }()
	t := p.peek()
	if p.depth > MaxDepth {
		return nil, p.errorf(t, "the expression is nested deeper than %d levels", MaxDepth)
	}
	if t.kind == tPunct && (t.text == "-" || t.text == "+") {
		p.i++
		a, err := p.unary()
		if err != nil || t.text == "+" {
			return a, err
		}
		return p.newNode(opNeg, t.pos, 0, a)
	}
	base, err := p.primary()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind == tPunct && t.text == "^" {
		p.i++
		exp, err := p.unary()
		if err != nil {
			return nil, err
		}
		return p.newNode(opPow, t.pos, 0, base, exp)
	}
	return base, nil
}

func (p *parser) primary() (*node, error) {
	t := p.next()
	switch {
	case t.kind == tNum:
		return p.newNode(opConst, t.pos, t.num)
	case t.kind == tPunct && t.text == "(":
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		return e, p.expect(")", "to close the parenthesis")
	case t.kind == tIdent && p.is("("):
		p.i++
		return p.call(t)
	case t.kind == tIdent:
		return p.param(t)
	}
	return nil, p.errorf(t, "expected a number, a name or \"(\", found %s", describe(t))
}

// call parses a function's or an lpdf's arguments after "name(".
func (p *parser) call(t token) (*node, error) {
	if name, ok := strings.CutSuffix(t.text, lpdfSuffix); ok {
		if d, ok := distributions[name]; ok {
			y, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expect("|", "after the variate (Stan writes "+t.text+"(y | …))"); err != nil {
				return nil, err
			}
			args, err := p.args(")")
			if err != nil {
				return nil, err
			}
			if len(args) != len(d.params) {
				return nil, p.errorf(t, "%s takes %d parameters after the bar (%s), got %d", t.text, len(d.params), strings.Join(d.params, ", "), len(args))
			}
			return p.newNode(d.op, t.pos, 0, append([]*node{y}, args...)...)
		}
	}
	f, ok := functions[t.text]
	if !ok {
		// A distribution's bare name is a slip for its _lpdf.
		if s, ok := suggest(t.text, append(callableNames(), distributionNames()...)); ok {
			if _, isDist := distributions[s]; isDist {
				s += lpdfSuffix
			}
			return nil, p.errorf(t, "unknown function %q; did you mean %q?", t.text, s)
		}
		return nil, p.errorf(t, "unknown function %q", t.text)
	}
	args, err := p.args(")")
	if err != nil {
		return nil, err
	}
	if len(args) != f.arity {
		return nil, p.errorf(t, "%s takes %d arguments, got %d", t.text, f.arity, len(args))
	}
	return p.newNode(f.op, t.pos, f.value, args...)
}

// param resolves a bare name to one of the two parameters, adding it if
// it is new.
func (p *parser) param(t token) (*node, error) {
	if f, ok := functions[t.text]; ok {
		if f.arity == 0 {
			return nil, p.errorf(t, "%q is a constant: write %s()", t.text, t.text)
		}
		return nil, p.errorf(t, "%q is a function: call it as %s(…)", t.text, t.text)
	}
	if _, ok := distributions[t.text]; ok {
		return nil, p.errorf(t, "%q is a distribution: use it as y ~ %s(…) or %s_lpdf(y | …)", t.text, t.text, t.text)
	}
	if t.text == "target" || t.text == "in" {
		return nil, p.errorf(t, "%q is reserved", t.text)
	}
	for i, n := range p.params {
		if n == t.text {
			return p.newNode(opParam, t.pos, float64(i))
		}
	}
	if len(p.params) == 2 {
		msg := fmt.Sprintf("a third parameter %q: a density takes exactly two, here %q and %q", t.text, p.params[0], p.params[1])
		if s, ok := suggest(t.text, p.params); ok {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return nil, p.errorf(t, "%s", msg)
	}
	p.params = append(p.params, t.text)
	return p.newNode(opParam, t.pos, float64(len(p.params)-1))
}
