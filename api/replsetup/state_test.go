package replsetup

import (
	"os"
	"path/filepath"
	"testing"
)

// Apply writes a save's changes into what the file holds then: a pair
// another process saved meanwhile is kept, a pair forgotten is removed,
// and the setup of a save older than one written is left as the newer
// one wrote it. A damaged file is replaced with the writer's pairs.
func TestApplyKeepsWhatOthersSaved(t *testing.T) {
	st := &Store{Path: filepath.Join(t.TempDir(), StateFileName)}
	mine, theirs := Pair{PrimaryID: "p1", SecondaryID: "s1"}, Pair{PrimaryID: "p2", SecondaryID: "s2"}
	older, newer := st.NextSeq(), st.NextSeq()
	if _, _, err := st.Apply("prod", Change{Seq: newer, Setup: &Progress{SecondaryID: "s9"}, Edits: []PairEdit{{Pair: mine}}}); err != nil {
		t.Fatal(err)
	}
	// the command line saves its pair: read, add, write
	ps, _ := st.Load("prod")
	ps.WithPair(theirs)
	if err := st.Save("prod", ps, 0); err != nil {
		t.Fatal(err)
	}
	_, readGen, _ := st.Read("prod")
	got, gen, err := st.Apply("prod", Change{Seq: older, Setup: nil, Edits: []PairEdit{{Pair: mine, Forget: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Pairs) != 1 || got.Pairs[0] != theirs || got.Setup == nil || got.Setup.SecondaryID != "s9" || gen <= readGen {
		t.Fatalf("want the other's pair and the newer setup kept, numbered after the read: %+v (gen %d after %d)", got, gen, readGen)
	}
	if err := os.WriteFile(st.Path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _, err := st.Apply("prod", Change{Pairs: []Pair{mine}}); err != nil || len(got.Pairs) != 1 || got.Pairs[0] != mine {
		t.Fatalf("a damaged file should be replaced with the writer's pairs: %+v, %v", got, err)
	}
}
