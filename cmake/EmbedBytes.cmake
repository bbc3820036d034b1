# cmake -DINPUT=file -DOUTPUT=file.inc -P EmbedBytes.cmake: writes INPUT's
# bytes as a comma-separated list of integer literals, for an array
# initialiser in C++.
file(READ ${INPUT} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE ${OUTPUT} "${bytes}\n")
