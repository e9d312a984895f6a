package keystore

import (
	"fmt"
	"regexp"
)

// s3KeyIDRe is the shape of an AWS access key ID: 16 to 128 capital
// letters and digits (AKIA… for a user's key, ASIA… for a temporary one).
// A secret access key (40 characters of mixed case, / and +) never has it.
var s3KeyIDRe = regexp.MustCompile(`^[A-Z0-9]{16,128}$`)

// CheckS3AccessKeyID refuses an access key ID that does not look like one
// (ErrInvalid, wrapped). The error never holds the value: what was given
// may be the secret, pasted in the wrong place (a caller where it was not
// shown says so).
func CheckS3AccessKeyID(id string) error {
	if !s3KeyIDRe.MatchString(id) {
		return fmt.Errorf("%w access key ID: an access key ID is 16 to 128 capital letters and digits, like AKIAIOSFODNN7EXAMPLE", ErrInvalid)
	}
	return nil
}
