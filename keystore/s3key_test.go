package keystore

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckS3AccessKeyID: an access key ID is 16 to 128 capital letters
// and digits; a secret access key never passes, and the refusal never
// holds the value.
func TestCheckS3AccessKeyID(t *testing.T) {
	for _, ok := range []string{"AKIAIOSFODNN7EXAMPLE", "ASIAQA4X00000000", strings.Repeat("A", 128)} {
		if err := CheckS3AccessKeyID(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "AKIA", "AKIAQA4X", "akiaiosfodnn7example", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"AKIAIOSFODNN7EXAMPLE ", strings.Repeat("A", 129)} {
		err := CheckS3AccessKeyID(bad)
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%q: %v, want ErrInvalid", bad, err)
		} else if strings.Contains(err.Error(), "wJalr") || strings.Contains(err.Error(), "akia") {
			t.Errorf("%q: the refusal holds the value: %v", bad, err)
		}
	}
}
