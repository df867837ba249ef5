package service

import "errors"

var errNATSDown = errors.New("not connected to NATS")
