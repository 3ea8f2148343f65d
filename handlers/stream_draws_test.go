package handlers

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// TestStreamSendsSamplerDraws: a sampler's stream carries its recent draws
// and live statistics in "draws", in some frames only (a new set at most
// about twice a second), with the four chains' last ≤ 500 draws; a VI
// method's frames never carry the field.
func TestStreamSendsSamplerDraws(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{factory: NewFactory, api: APIConfig{Specs: catalog.Specs}})
	var hmc, vi wire.RunCreated
	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"linreg","method":"hmc","seed":1,"controls":{"warmup":200}}`, &hmc); code != http.StatusCreated {
		t.Fatalf("hmc on linreg: %d", code)
	}
	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"linreg","method":"mfvi","seed":1}`, &vi); code != http.StatusCreated {
		t.Fatalf("mfvi on linreg: %d", code)
	}
	type drawsFrame struct {
		Step  int64 `json:"step"`
		Draws *struct {
			Retained   int64                  `json:"retained"`
			Chains     int                    `json:"chains"`
			Params     []string               `json:"params"`
			Values     map[string][][]float64 `json:"values"`
			ParamStats map[string]struct {
				RHat    float64 `json:"rhat"`
				ESSBulk float64 `json:"ess_bulk"`
				ESSTail float64 `json:"ess_tail"`
				Ranks   [][]int `json:"ranks"`
			} `json:"param_stats"`
		} `json:"draws"`
	}
	read := func(id string, n int) (frames, withDraws int, last drawsFrame) {
		c := dial(t, e, id, nil)
		send(t, c, `{"op":"play"}`)
		deadline := time.Now().Add(10 * time.Second)
		for frames < n && time.Now().Before(deadline) {
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, msg, err := c.ReadMessage()
			if err != nil {
				t.Fatal(err)
			}
			var f drawsFrame
			if err := json.Unmarshal(msg, &f); err != nil {
				t.Fatal(err)
			}
			frames++
			if f.Draws != nil {
				withDraws++
				last = f
			}
		}
		send(t, c, `{"op":"pause"}`)
		return frames, withDraws, last
	}
	frames, with, last := read(hmc.ID, 150) // 1.5 s at 100 frames per second
	d := last.Draws
	if d == nil || d.Chains != 4 || len(d.Params) != 3 || len(d.Values["b"]) != 4 || len(d.Values["b"][0]) > engine.DrawWindow || len(d.Values["b"][0]) == 0 {
		t.Fatalf("%d frames, %d with draws, last %+v", frames, with, d)
	}
	if with == 0 || with > frames/10 {
		t.Errorf("%d of %d frames carried draws; want a few (a new set at most every 0.5 s)", with, frames)
	}
	s := d.ParamStats["b"]
	if !(s.RHat > 0.9 && s.RHat < 1.1) || !(s.ESSBulk > 10) || len(s.Ranks) != 4 || len(s.Ranks[0]) != engine.RankBins {
		t.Errorf("slope statistics %+v", s)
	}
	if frames, with, _ := read(vi.ID, 30); with != 0 {
		t.Errorf("%d of %d mfvi frames carried draws", with, frames)
	}
}
