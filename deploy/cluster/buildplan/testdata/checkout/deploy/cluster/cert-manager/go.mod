module santa.local/cert-manager-controller

require github.com/cert-manager/cert-manager v1.21.2
