module santa.local/podwatch

go 1.24
