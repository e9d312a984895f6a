//go:build !linux

package keystore

import "errors"

var errKeyctlLinuxOnly = errors.New("the kernel keyring is Linux-only")

type keyctlBackend struct{}

func newKeyctlBackend() *keyctlBackend { return &keyctlBackend{} }

func (k *keyctlBackend) Name() string               { return BackendKeyctl }
func (k *keyctlBackend) Label() string              { return "kernel keyring (kept until reboot)" }
func (k *keyctlBackend) MaxSize() int               { return LimitKeyctl }
func (k *keyctlBackend) Probe() error               { return errKeyctlLinuxOnly }
func (k *keyctlBackend) Get(string) (string, error) { return "", errKeyctlLinuxOnly }
func (k *keyctlBackend) Set(string, string) error   { return errKeyctlLinuxOnly }
func (k *keyctlBackend) Delete(string) error        { return errKeyctlLinuxOnly }

func keyctlBlocked(err error) bool { return errors.Is(err, errKeyctlLinuxOnly) }
