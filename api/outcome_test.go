package api

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A change that left and got no answer has an unknown outcome; one that
// never left (refused connection) is a plain failure; a read that gets no
// answer is just a failure (nothing changed).
func TestOutcomeUnknownOnlyWhenAChangeWasSent(t *testing.T) {
	var posts atomic.Int32
	drop := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.Method == http.MethodPost {
			posts.Add(1)
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close() // the change was received; its answer is lost
		}
	})
	c, _ := newTestClient(t, drop, func(c *Config) { c.MaxRetries = -1 })
	_, err := c.CreateSchedule(context.Background(), ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: "dbtgf1"})
	if !IsOutcomeUnknown(err) || !strings.Contains(err.Error(), "outcome unknown") {
		t.Fatalf("a dropped answer to a POST: %v", err)
	}
	if n := posts.Load(); n != 1 {
		t.Fatalf("%d POSTs, want 1 (never retried)", n)
	}
	if _, err := c.ListServices(context.Background()); err == nil || IsOutcomeUnknown(err) {
		t.Fatalf("a dropped answer to a GET is a plain failure: %v", err)
	}

	// a timeout after the request was sent
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		time.Sleep(300 * time.Millisecond)
	})
	c2, _ := newTestClient(t, slow, func(c *Config) { c.Timeout = 50 * time.Millisecond })
	_, err = c2.CreateRestore(context.Background(), ManagedRestore("dbtgf1", "k:dbtgf1:p"))
	if !IsOutcomeUnknown(err) {
		t.Fatalf("a timed-out POST: %v", err)
	}

	// nothing listening: nothing was sent
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c3, err := New(Config{BaseURL: "http://" + addr, APIKey: "k", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c3.CreateRestore(context.Background(), ManagedRestore("dbtgf1", "k:dbtgf1:p"))
	if err == nil || IsOutcomeUnknown(err) {
		t.Fatalf("a refused connection is not an unknown outcome: %v", err)
	}
}
