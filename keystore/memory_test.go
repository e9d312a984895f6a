package keystore

import (
	"errors"
	"testing"
)

func TestMemoryBackendInAChain(t *testing.T) {
	mem := NewMemoryBackend("memory (demo: forgotten on exit)")
	s, err := Open(Options{Backends: []Backend{mem}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	if s.Backend().Label() != "memory (demo: forgotten on exit)" {
		t.Errorf("label %q", s.Backend().Label())
	}
	if err := s.PutBucketCredential(S3Credential{Name: "demo", AccessKeyID: "AKIA", SecretAccessKey: "x", Region: "us-east-1"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.BucketCredential("demo")
	if err != nil || got.Kind() != KindS3 {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := s.DeleteBucketCredential("demo"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.BucketCredential("demo"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
}
