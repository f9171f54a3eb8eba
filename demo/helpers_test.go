package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// selfCommand re-runs this test binary on one test (for exit codes).
func selfCommand(t *testing.T, test string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exec.Command(exe, "-test.run=^"+test+"$")
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
