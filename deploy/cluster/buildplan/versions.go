package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Versions are the pins the cluster is built from: deploy/cluster/versions.env and
// deploy/local/pins.env. Shell scripts source both files too, so they stay plain: comments,
// blank lines and NAME=value lines without quotes or spaces.
type Versions map[string]string

var pin = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=([^\s"'$` + "`" + `]*)$`)

// LoadVersions reads the files in order (a later line wins, as when a shell sources them).
func LoadVersions(paths ...string) (Versions, error) {
	v := Versions{}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			m := pin.FindStringSubmatch(line)
			if m == nil {
				f.Close()
				return nil, fmt.Errorf("%s:%d: not NAME=value: %q", path, n, line)
			}
			v[m[1]] = m[2]
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return v, nil
}

// Get is the pin named key; a missing one is an error, not an empty version (a cache folder
// named "coredns-" would be taken for a build).
func (v Versions) Get(key string) (string, error) {
	if s := v[key]; s != "" {
		return s, nil
	}
	return "", fmt.Errorf("%s is not set (deploy/cluster/versions.env, deploy/local/pins.env)", key)
}
