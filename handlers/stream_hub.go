package handlers

import (
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// A hub encodes a run's frames once for all its viewers. One goroutine per
// watched run reads the run's latest frame at the paced rate (a tick),
// encodes it as a delta since the hub's previous tick and prepares it as a
// websocket message; every viewer that sent the previous tick writes the
// same prepared bytes. A viewer that joins, or that missed ticks because
// its writes were slow, gets a catch-up frame instead: the whole history
// up to the latest tick when it joins or the run was reset since (one
// snapshot per tick, shared by the viewers that need it), or else its own
// delta from its last tick to the latest. Either ends exactly where the
// latest tick ends, so the shared deltas that follow continue it.
//
// Latest-wins holds as before: a viewer is only ever handed the latest
// tick, and holds at most the one tick it last sent.
type hub struct {
	api  *API
	run  *engine.Run
	stop chan struct{} // closed when the last viewer leaves
	done chan struct{} // closed when loop returns
	refs int           // viewers joined; under api.mu

	mu     sync.Mutex
	latest *tick
	notify chan struct{} // closed and replaced at each tick

	pool   sync.Pool    // *catchUp: a lagging viewer's buffers, for a moment
	caught atomic.Int64 // catch-up frames sent, snapshots included
}

// tick is one shared frame and where it leaves a viewer that sent it.
type tick struct {
	seq   uint64
	msg   *websocket.PreparedMessage
	size  int
	full  bool          // its points replace the viewer's: anyone may take it
	f     *engine.Frame // the run's frame it showed
	data  *wire.DataPoints
	epoch uint64
	step  int64 // the frame's step as sent
	last  int64 // the newest history step sent up to this tick, this epoch; math.MinInt64: none

	snapOnce sync.Once // the snapshot: every point of the epoch up to last
	snap     *websocket.PreparedMessage
	snapSize int
	snapOK   bool
}

// joinHub returns the run's hub, starting it for the run's first viewer.
func (a *API) joinHub(run *engine.Run) *hub {
	a.mu.Lock()
	defer a.mu.Unlock()
	h := a.hubs[run]
	if h == nil {
		if a.hubs == nil {
			a.hubs = make(map[*engine.Run]*hub)
		}
		h = &hub{api: a, run: run, stop: make(chan struct{}), done: make(chan struct{}), notify: make(chan struct{})}
		a.hubs[run] = h
		go h.loop()
	}
	h.refs++
	return h
}

// leaveHub counts a viewer out; the last one stops the hub and waits for
// its goroutine.
func (a *API) leaveHub(h *hub) {
	a.mu.Lock()
	h.refs--
	last := h.refs == 0
	if last {
		delete(a.hubs, h.run)
		close(h.stop)
	}
	a.mu.Unlock()
	if last {
		<-h.done
	}
}

// next returns the latest tick (nil before the first) and a channel closed
// at the next.
func (h *hub) next() (*tick, <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.latest, h.notify
}

// loop reads the run at the paced rate and publishes a tick when there is
// anything new: a frame, points, or the first read.
func (h *hub) loop() {
	defer close(h.done)
	cfg := h.api.stream
	crowdGap := time.Duration(float64(time.Second) / cfg.CrowdFrameRate)
	var (
		cur     engine.Cursor
		out     frameWriter
		seq     uint64
		last    = int64(math.MinInt64)
		changed <-chan struct{}
		due     time.Time        // a crowded run's next tick, at the earliest
		paced   <-chan time.Time // when one waits for due
	)
	read := true
	for {
		if read {
			var f *engine.Frame
			f, changed = h.run.Read(&cur)
			if cur.Full {
				last = math.MinInt64
			}
			if n := len(cur.Objective); n > 0 {
				last = cur.Objective[n-1].Step
			}
			if cur.NewFrame || cur.Full || len(cur.Objective) > 0 {
				seq++
				if t := h.encode(seq, f, &cur, &out, last); t != nil {
					h.publish(t)
				}
				// Crowded ticks keep to a grid of crowdGap, so the wake-up
				// latency of each does not lower the rate: the next is due a
				// gap after this one was, but no sooner than half a gap from
				// now (after a pause) and no later than a gap from now.
				now := time.Now()
				due = due.Add(crowdGap)
				if lo := now.Add(crowdGap / 2); due.Before(lo) {
					due = lo
				} else if hi := now.Add(crowdGap); due.After(hi) {
					due = hi
				}
			}
			read = false
		}
		select {
		case <-changed:
			changed = nil
			if wait := time.Until(due); wait > 0 && h.run.Viewers() > cfg.CrowdViewers {
				paced = time.After(wait)
				continue
			}
			read = true
		case <-paced:
			paced = nil
			read = true
		case <-h.stop:
			return
		case <-h.run.Done():
			return
		}
	}
}

// encode builds and prepares the tick for the run's frame f and the points
// read into cur; nil if it cannot be encoded (logged), which leaves the
// viewers at the previous tick: the next is then a catch-up for them.
func (h *hub) encode(seq uint64, f *engine.Frame, cur *engine.Cursor, out *frameWriter, last int64) *tick {
	w := out.frame(f, cur, h.run.TraceNames(), h.run.Data())
	b, err := out.enc.Encode(&w)
	if err == nil {
		var pm *websocket.PreparedMessage
		if pm, err = websocket.NewPreparedMessage(websocket.TextMessage, b); err == nil {
			return &tick{seq: seq, msg: pm, size: len(b), full: cur.Full, f: f, data: out.data, epoch: f.Epoch, step: w.Step, last: last}
		}
	}
	h.api.log.Error("encoding a stream frame", "run", h.run.ID(), "err", err)
	return nil
}

func (h *hub) publish(t *tick) {
	h.mu.Lock()
	h.latest = t
	close(h.notify)
	h.notify = make(chan struct{})
	h.mu.Unlock()
}

// send writes to conn what a viewer that last sent from (nil: nothing yet)
// needs to reach to: to's shared bytes when it follows from or replaces
// everything, else a catch-up. sent is false when the run has been reset
// since to and no catch-up can end at it: the viewer waits for the next
// tick, which starts the new epoch in full.
func (h *hub) send(w *frameConn, from, to *tick) (sent bool, err error) {
	switch {
	case to.full || (from != nil && to.seq == from.seq+1):
		return true, w.prepared(to.msg, to.size)
	case from == nil || from.epoch != to.epoch:
		to.snapOnce.Do(func() {
			ok, err := h.catchUp(nil, to, func(b []byte) (err error) {
				to.snapSize = len(b)
				to.snap, err = websocket.NewPreparedMessage(websocket.TextMessage, b)
				return err
			})
			to.snapOK = ok && err == nil // else the viewers wait for the next tick
		})
		if !to.snapOK {
			return false, nil
		}
		h.caught.Add(1)
		return true, w.prepared(to.snap, to.snapSize)
	}
	sent, err = h.catchUp(from, to, w.bytes)
	if sent {
		h.caught.Add(1)
	}
	return sent, err
}

// frameConn writes frames to one viewer under its write deadline.
type frameConn struct{ c *wsConn }

func (w *frameConn) prepared(pm *websocket.PreparedMessage, size int) error {
	w.c.conn.SetWriteDeadline(time.Now().Add(w.c.api.stream.WriteWait))
	if err := w.c.conn.WritePreparedMessage(pm); err != nil {
		return err
	}
	w.c.api.observer.FrameSent(size)
	return nil
}

func (w *frameConn) bytes(b []byte) error {
	w.c.conn.SetWriteDeadline(time.Now().Add(w.c.api.stream.WriteWait))
	if err := w.c.conn.WriteMessage(websocket.TextMessage, b); err != nil {
		return err
	}
	w.c.api.observer.FrameSent(len(b))
	return nil
}

// catchUp is a lagging viewer's buffers, pooled: viewers lag rarely.
type catchUp struct {
	cur    engine.Cursor
	enc    wire.FrameEncoder
	extras []*wire.Extra
	trace  map[string]wire.Series
}

// catchUp encodes the frame that takes a viewer from tick from to tick to
// and hands it to write: to's state with every point after from's last up
// to to's, and the shared parts that differ from from's; with from nil,
// every point of the epoch up to to's last and every part (a full frame).
// The points come from the run's history as it is now, which holds them
// unless the run has been reset since to (ok false, nothing written).
func (h *hub) catchUp(from, to *tick, write func([]byte) error) (ok bool, err error) {
	c, _ := h.pool.Get().(*catchUp)
	if c == nil {
		c = &catchUp{trace: map[string]wire.Series{}}
	}
	defer h.pool.Put(c)
	c.cur = engine.Cursor{Objective: c.cur.Objective, Traces: c.cur.Traces} // a fresh cursor reads the whole history
	f, _ := h.run.Read(&c.cur)
	n := len(c.cur.Objective)
	if f.Epoch != to.epoch || (to.last != math.MinInt64 && (n == 0 || c.cur.Objective[n-1].Step < to.last)) {
		return false, nil // reset since: the history is another epoch's
	}
	after := int64(math.MinInt64)
	if from != nil {
		after = from.last
	}
	w := stateFrame(to.f, from == nil, to.step)
	w.Objective, w.Trace = between(c.cur.Objective, after, to.last), c.trace
	chains, perChain := chainCount(to.f.Controls)
	for i, name := range h.run.TraceNames() {
		if k, ok := chainSlot(name); perChain && ok && k > chains {
			delete(c.trace, name) // a chain slot this run does not have (traces.go)
			continue
		}
		c.trace[name] = between(c.cur.Traces[i], after, to.last)
	}
	if from == nil || to.f.Predictive != from.f.Predictive {
		w.Predictive = to.f.Predictive
	}
	if from == nil || to.data != from.data {
		w.Data = to.data
	}
	c.extras = c.extras[:0]
	for _, x := range to.f.Extras {
		if from == nil || from.f.Extra(x.Key) != x {
			c.extras = append(c.extras, x)
		}
	}
	w.Extras = c.extras
	b, err := c.enc.Encode(&w)
	if err != nil {
		h.api.log.Error("encoding a catch-up frame", "run", h.run.ID(), "err", err)
		return false, err
	}
	return true, write(b)
}

// between returns the points of s (steps increasing) with after < step ≤
// upto, as a subslice.
func between(s []numeric.Point, after, upto int64) wire.Series {
	i := 0
	for i < len(s) && s[i].Step <= after {
		i++
	}
	j := len(s)
	for j > i && s[j-1].Step > upto {
		j--
	}
	return s[i:j]
}
