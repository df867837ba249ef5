module santa.local/pause

go 1.24
