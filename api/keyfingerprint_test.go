package api_test

import (
	"testing"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
)

// TestKeyFingerprintIsTheKeystores: Settings compares the key the client
// sends with the keystore's by fingerprint, so the two agree.
func TestKeyFingerprintIsTheKeystores(t *testing.T) {
	for _, key := range []string{"skysql.key.abc", ""} {
		c, err := api.New(api.Config{BaseURL: "http://127.0.0.1:1", APIKey: key})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := c.KeyFingerprint(), keystore.Fingerprint(key); got != want {
			t.Errorf("key %q: client %q, keystore %q", key, got, want)
		}
	}
}
