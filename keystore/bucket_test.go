package keystore

import (
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
)

func TestEncodeForBucketRefusesTheWrongKind(t *testing.T) {
	st, err := Open(Options{Backends: []Backend{NewMemoryBackend("memory (test)")}, Getenv: mapEnv(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutBucketCredential(GCSCredential{Name: "team-gcs", KeyJSON: fakeGCSKey(t, 64)}); err != nil {
		t.Fatal(err)
	}
	if _, err := EncodeForBucket(st, "team-gcs", "s3://acme-exports/orders"); err == nil || !strings.Contains(err.Error(), "s3:// needs S3 credentials") {
		t.Fatalf("GCS on s3:// = %v", err)
	}
	enc, err := EncodeForBucket(st, "team-gcs", "gs://acme-exports/orders")
	if err != nil || api.ValidateEncodedCredentials("gs", enc) != nil {
		t.Fatalf("GCS on gs:// = %q, %v", enc, err)
	}
	if _, err := EncodeForBucket(st, "missing", "gs://acme-exports/orders"); err == nil {
		t.Fatal("a missing credential encoded")
	}
	if _, err := EncodeForBucket(nil, "team-gcs", "gs://a/b"); err == nil || !strings.Contains(err.Error(), "no keystore") {
		t.Fatalf("no keystore = %v", err)
	}
}

func TestCheckForBucketNamesTheRule(t *testing.T) {
	for _, c := range []struct{ uri, name, kind, want string }{
		{"gs://b/f", "", "", "choose stored GCS credentials for gs://"},
		{"s3://b/f", "", "", "choose stored S3 credentials for s3://"},
		{"", "", "", "choose stored bucket credentials"},
		{"s3://b/f", "team-gcs", KindGCS, "team-gcs is a GCS credential; s3:// needs S3 credentials"},
		{"gs://b/f", "team-gcs", KindGCS, ""},
	} {
		err := CheckForBucket(c.uri, c.name, c.kind)
		if c.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", c, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "external_storage.bucket.credentials") {
			t.Errorf("%+v = %v, want %q on the credentials field", c, err, c.want)
		}
	}
}
