package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
)

// liveHeap is the heap's live bytes after two collections.
// mappedHeap is the heap's memory the process holds from the system:
// every heap page not released to it (what the heap adds to RSS).
func mappedHeap() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	var n uint64
	for _, x := range s {
		n += x.Value.Uint64()
	}
	return int64(n)
}

func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// TestHeapReturnsAfterDelete creates, on loopback, a run of a few hundred
// megabytes — NUTS with arch 100,100 and 4 chains on a 10,000-row upload,
// the largest tree the default per-step bound admits there (max_depth 8)
// — lets it step, deletes it mid-step and checks that the heap returns
// near where it was before the run: within 8 MiB of the baseline, what the
// server keeps besides the run (the upload, its session, its caches) with
// room for the collector's timing, against the run's ~200 MB. It waits for
// that at most a minute, collecting every 50 ms (no time is asserted).
func TestHeapReturnsAfterDelete(t *testing.T) {
	s, err := New(DefaultConfig(), quiet)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	base := "http://" + ln.Addr().String()
	client, _ := newSession(t)
	post := func(path, ctype, body string) (int, []byte) {
		t.Helper()
		res, err := client.Post(base+path, ctype, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}

	var csv strings.Builder
	csv.WriteString("x,y\n")
	r := rand.New(rand.NewPCG(7, 8))
	for range 10_000 {
		x := 8*r.Float64() - 4
		fmt.Fprintf(&csv, "%.4f,%.4f\n", x, x*x*x/10+r.NormFloat64())
	}
	code, b := post("/api/data", "text/csv", csv.String())
	var up struct{ Data string }
	if code != http.StatusCreated || json.Unmarshal(b, &up) != nil {
		t.Fatalf("upload: %d %s", code, b)
	}
	baseline := liveHeap()
	mapped0 := mappedHeap()

	code, b = post("/api/runs", "application/json", fmt.Sprintf(`{"data":%q,"method":"nuts","controls":{"arch":"100,100","chains":4,"max_depth":8}}`, up.Data))
	var created struct{ ID string }
	if code != http.StatusCreated || json.Unmarshal(b, &created) != nil {
		t.Fatalf("create: %d %s", code, b)
	}
	run, err := s.Registry().Get(created.ID)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.WaitFrame(t, run, time.Minute, func(f *engine.Frame) bool { return f.Status != engine.StatusPreparing })
	held := liveHeap() - baseline
	estimate := s.Registry().Spent()
	if code, b := post("/api/runs/"+created.ID+"/ops", "application/json", `{"op":"play"}`); code != http.StatusNoContent {
		t.Fatalf("play: %d %s", code, b)
	}
	time.Sleep(300 * time.Millisecond) // into its first tree: the delete comes mid-step

	req, _ := http.NewRequest(http.MethodDelete, base+"/api/runs/"+created.ID, nil)
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %d", res.StatusCode)
	}
	const slack = 8 << 20
	var after int64
	deleted := time.Now()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if after = liveHeap() - baseline; after <= slack || time.Now().After(deadline) {
			break
		}
	}
	t.Logf("run held %.0f MB (estimate %.0f MB); %v after its delete the heap is %+.1f MB from the baseline",
		float64(held)/(1<<20), float64(estimate)/(1<<20), time.Since(deleted).Round(time.Millisecond), float64(after)/(1<<20))
	// The pages the run's heap took are given back to the system once it
	// has stopped (the registry frees them at once; Go's scavenger alone
	// returned none of four such runs' 700 MiB within seconds), so what
	// the process holds from the system returns within an eighth of the run
	// size of its baseline.
	var mapped int64
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if mapped = mappedHeap() - mapped0; mapped <= held/8 || time.Now().After(deadline) {
			break
		}
	}
	t.Logf("%v after its delete the heap's pages held from the system are %+.1f MB from the baseline",
		time.Since(deleted).Round(time.Millisecond), float64(mapped)/(1<<20))
	if mapped > held/8 {
		t.Errorf("a minute after the delete the heap holds %.0f MB more from the system than before the run, want at most %.0f (an eighth of the run)",
			float64(mapped)/(1<<20), float64(held/8)/(1<<20))
	}
	if held < 64<<20 {
		t.Errorf("the run held only %.0f MB: not the large run this test is about", float64(held)/(1<<20))
	}
	if after > slack {
		t.Errorf("a minute after the delete the heap is %.1f MB above its baseline, want at most %d MiB", float64(after)/(1<<20), slack>>20)
	}
	if got := s.Registry().Spent(); got != 0 {
		t.Errorf("the budget still counts %d bytes", got)
	}
}
