package testenv

// MinIO is the test MinIO server's address and credentials (TEST_MINIO_*, with the local
// defaults `make test` starts it with).
func MinIO() (endpoint, accessKey, secretKey string) {
	return env("TEST_MINIO_ENDPOINT", "127.0.0.1:9000"),
		env("TEST_MINIO_ACCESS_KEY", "santa"),
		env("TEST_MINIO_SECRET_KEY", "santa-secret-key")
}
