module github.com/wasmsand/wasmsand

go 1.26

require github.com/hack-pad/hackpadfs v0.2.4
