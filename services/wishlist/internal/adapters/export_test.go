package adapters

// AppendJSONString lets the tests compare the list's string escaping with encoding/json's.
var AppendJSONString = appendString
