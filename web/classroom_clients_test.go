//go:build unix

package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/posterior-playground/playground/sim/cputime"
)

// The classroom's students stand in for browsers on other machines: they
// run in a child process (this test binary again, TestClassroomClients),
// so the server process's CPU is measured apart from theirs, and each does
// the least that still checks what it receives: every message is read
// through NextReader and counted by its bytes, must begin as a frame does,
// and every clientDecodeEvery-th (and the first) is decoded in full and
// checked (checkFrame).
const (
	clientsEnv        = "PLAYGROUND_CLASSROOM_CLIENTS"
	clientsPrefix     = "classroom-clients: "
	clientDecodeEvery = 10
)

// target is one student: the stream to watch and the cookie its browser
// sends (empty: a session of its own).
type target struct {
	URL    string `json:"url"`
	Cookie string `json:"cookie,omitempty"`
}

// clientReport is what the child says when asked: frames per student,
// bytes and frames decoded in all, the first error of each student that
// lost its stream or got a bad frame, and the child's CPU time so far.
type clientReport struct {
	Frames  []int64  `json:"frames"`
	Bytes   int64    `json:"bytes"`
	Decoded int64    `json:"decoded"`
	Errors  []string `json:"errors"`
	CPU     float64  `json:"cpu_seconds"`
}

// clients is the child process holding the students' websockets.
type clients struct {
	t    *testing.T
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	done bool
}

// spawnClients starts the child and waits until every student has dialed.
func spawnClients(t *testing.T, targets []target) *clients {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestClassroomClients$", "-test.count=1", "-test.timeout=0")
	// One OS thread runs the students' goroutines: they need about a tenth
	// of a core, and spread over both cores their wake-ups would preempt
	// the server's threads on both (browsers on other machines do not).
	cmd.Env = append(os.Environ(), clientsEnv+"=1", "GOMAXPROCS=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &clients{t: t, cmd: cmd, in: in, out: bufio.NewScanner(out)}
	c.out.Buffer(nil, 16<<20)
	t.Cleanup(func() { c.quit() })
	b, _ := json.Marshal(targets)
	if _, err := fmt.Fprintf(in, "%s\n", b); err != nil {
		t.Fatal(err)
	}
	if r := c.report(""); len(r.Errors) > 0 {
		t.Fatalf("students could not dial: %d errors, the first: %s", len(r.Errors), r.Errors[0])
	}
	return c
}

// report asks the child for its counts (cmd "report"), or for the first
// report after dialing (cmd "").
func (c *clients) report(cmd string) clientReport {
	c.t.Helper()
	if cmd != "" {
		if _, err := fmt.Fprintln(c.in, cmd); err != nil {
			c.t.Fatalf("the students' process: %v", err)
		}
	}
	for c.out.Scan() {
		line, ok := strings.CutPrefix(c.out.Text(), clientsPrefix)
		if !ok {
			continue // go test's own lines
		}
		var r clientReport
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			c.t.Fatalf("the students' process said %q: %v", line, err)
		}
		return r
	}
	c.t.Fatalf("the students' process ended: %v", c.out.Err())
	return clientReport{}
}

// quit closes every student's stream with a close frame and waits for the
// child to exit; it returns the last report.
func (c *clients) quit() clientReport {
	if c.done {
		return clientReport{}
	}
	c.done = true
	r := c.report("quit")
	c.in.Close()
	if err := c.cmd.Wait(); err != nil {
		c.t.Errorf("the students' process: %v", err)
	}
	return r
}

// TestClassroomClients is the students' side of the classroom tests, run
// in a child process by spawnClients; skipped otherwise.
func TestClassroomClients(t *testing.T) {
	if os.Getenv(clientsEnv) == "" {
		t.Skip("the classroom tests' child process")
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 16<<20)
	if !in.Scan() {
		t.Fatal("no targets")
	}
	var targets []target
	if err := json.Unmarshal(in.Bytes(), &targets); err != nil {
		t.Fatal(err)
	}
	students := make([]*student, len(targets))
	var wg sync.WaitGroup
	for i, tg := range targets {
		wg.Go(func() { students[i] = dialStudent(tg) })
	}
	wg.Wait()
	say := func() {
		r := clientReport{Frames: make([]int64, len(students)), CPU: cputime.Process().Seconds()}
		for i, s := range students {
			r.Frames[i] = s.frames.Load()
			r.Bytes += s.bytes.Load()
			r.Decoded += s.decoded.Load()
			if err, _ := s.err.Load().(error); err != nil {
				r.Errors = append(r.Errors, fmt.Sprintf("student %d: %v", i, err))
			}
		}
		b, _ := json.Marshal(r)
		fmt.Printf("%s%s\n", clientsPrefix, b)
	}
	var reading sync.WaitGroup
	for _, s := range students {
		if s.conn != nil {
			reading.Go(s.read)
		}
	}
	say()
	for in.Scan() {
		if in.Text() == "quit" {
			break
		}
		say()
	}
	for _, s := range students {
		if s.conn != nil {
			s.closing.Store(true)
			s.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "tab closed"), time.Now().Add(time.Second))
			s.conn.Close()
		}
	}
	reading.Wait()
	say()
}

// student is one browser watching one stream.
type student struct {
	conn    *websocket.Conn
	frames  atomic.Int64
	bytes   atomic.Int64
	decoded atomic.Int64
	closing atomic.Bool
	err     atomic.Value // the first error (a firstErr): a lost stream or a bad frame
}

// firstErr is the one type student.err holds: an atomic.Value panics when
// swapped for a value of another type than it holds (a bad frame's error,
// then the lost stream's).
type firstErr struct{ error }

func dialStudent(tg target) *student {
	s := &student{}
	h := http.Header{}
	if tg.Cookie != "" {
		h.Set("Cookie", tg.Cookie)
	}
	// A read buffer that holds several frames: with gorilla's 4 KiB a
	// frame took two or more reads, and reads were a third of the
	// students' CPU; a student that falls behind on a busy machine now
	// catches up in fewer reads.
	d := websocket.Dialer{HandshakeTimeout: 30 * time.Second, ReadBufferSize: 64 << 10}
	conn, _, err := d.Dial(tg.URL, h)
	if err != nil {
		s.err.Store(firstErr{err})
		return s
	}
	s.conn = conn
	return s
}

// read counts the student's frames until its stream ends.
func (s *student) read() {
	head := make([]byte, len(framePrefix))
	var buf bytes.Buffer
	var last checked
	for {
		_, r, err := s.conn.NextReader()
		if err != nil {
			if !s.closing.Load() {
				s.err.CompareAndSwap(nil, firstErr{err})
			}
			return
		}
		_, err = io.ReadFull(r, head)
		if err == nil && !bytes.Equal(head, []byte(framePrefix)) {
			continue // an error or queued message: not a frame
		}
		var rest int64
		if k := s.frames.Load(); err == nil && k%clientDecodeEvery == 0 {
			buf.Reset()
			buf.Write(head)
			if rest, err = buf.ReadFrom(r); err == nil {
				err = last.check(buf.Bytes(), k == 0)
				s.decoded.Add(1)
			}
		} else if err == nil {
			rest, err = io.Copy(io.Discard, r)
		}
		if err != nil {
			if !s.closing.Load() {
				s.err.CompareAndSwap(nil, firstErr{fmt.Errorf("frame %d: %w", s.frames.Load(), err)})
			}
			continue
		}
		s.frames.Add(1)
		s.bytes.Add(int64(len(head)) + rest)
	}
}

const framePrefix = `{"type":"frame"`

// checked is what a student remembers of the frames it decoded.
type checked struct {
	epoch uint64
	step  int64
}

// check decodes one frame in full: it must be valid JSON with a status,
// points whose steps increase and end at most at the frame's step, a step
// that does not go back within an epoch, and, for the first, the run's
// whole state (full, with the data).
func (c *checked) check(b []byte, first bool) error {
	var f struct {
		Full      bool
		Epoch     uint64
		Step      int64
		Status    string
		Objective [][2]float64
		Data      *struct{ X []float64 }
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	switch {
	case f.Status == "":
		return errors.New("no status")
	case first && (!f.Full || f.Data == nil):
		return fmt.Errorf("the first frame: full %v, data %v; want both", f.Full, f.Data != nil)
	case f.Epoch == c.epoch && f.Step < c.step:
		return fmt.Errorf("step %d after %d in epoch %d", f.Step, c.step, f.Epoch)
	}
	for i, p := range f.Objective {
		if (i > 0 && p[0] <= f.Objective[i-1][0]) || int64(p[0]) > f.Step {
			return fmt.Errorf("objective point %d at step %v (frame step %d)", i, p[0], f.Step)
		}
	}
	c.epoch, c.step = f.Epoch, f.Step
	return nil
}
