package handlers

import (
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// A link to a run's state (METHOD.replay) reaches the panel's page config
// as the replay its run is created with, and the canonical link keeps it.
func TestPlayLinkCarriesReplay(t *testing.T) {
	p := NewPages(quietLog, NewUploads(0))
	q := url.Values{"data": {"gap"}, "methods": {"mfvi,gip"}, "gip.replay": {"1200,300:lr:0.005,700:prior_scale:3"}}
	c, err := parsePlay(q, p.methods)
	if err != nil {
		t.Fatal(err)
	}
	want := &wire.Replay{Step: 1200, Changes: []wire.Mark{{Step: 300, Name: "lr", Value: sim.Num(0.005)}, {Step: 700, Name: "prior_scale", Value: sim.Num(3)}}}
	cfg, err := p.pageConfig(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Panels[1].Replay; !reflect.DeepEqual(got, want) || cfg.Panels[0].Replay != nil {
		t.Fatalf("replays %+v, %+v; want none and %+v", cfg.Panels[0].Replay, got, want)
	}
	if u := c.URL(); !strings.Contains(u, "gip.replay=1200,300:lr:0.005,700:prior_scale:3") {
		t.Fatalf("canonical link %s lost the replay", u)
	}
	again, err := url.ParseQuery(strings.TrimPrefix(c.URL(), "/play?"))
	if err != nil {
		t.Fatal(err)
	}
	c2, err := parsePlay(again, p.methods)
	if err != nil || !reflect.DeepEqual(c2.Panels[1].Replay, want) {
		t.Fatalf("round trip: %+v, %v", c2.Panels[1].Replay, err)
	}
}

// A bad replay in a link is a page error naming the parameter.
func TestPlayLinkRefusesBadReplays(t *testing.T) {
	p := NewPages(quietLog, NewUploads(0))
	many := "10" + strings.Repeat(",1:lr:0.01", engine.MaxReplayChanges+1)
	for _, raw := range []string{"", "x", "-1", "200001", "10,11:lr:0.01", "10,5:lr:0.01,4:lr:0.02", "10,5:lr", "10,5:nope:1",
		"10,5:lr:7", "10,5:lr:abc", "10,5:inducing:10:", many} {
		_, err := parsePlay(url.Values{"data": {"gap"}, "methods": {"gip"}, "gip.replay": {raw}}, p.methods)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != "gip.replay" {
			t.Errorf("gip.replay=%q: %v, want an error naming gip.replay", raw, err)
		}
	}
}
