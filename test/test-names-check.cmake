# The rule for test case names, checked on the names the runner prints. ns-3 makes folder names
# of test names (CreateTempDirFilename), and a name is all a reader sees of a case in a run: at
# most 100 characters of letters, digits, spaces and - _ . , = + ( ), saying what is tested; the
# claim and its hand-worked numbers go in a comment above the case.
#
# discover-suites.cmake gives each suite's ctest entry these regular expressions as
# FAIL_REGULAR_EXPRESSION, so every name is checked as the runner prints it ("  PASS NAME 0.123 s"
# under --verbose), names built at run time included, at no extra run. A match fails the entry:
# ns-3's own complaint about a name with one of '"/\|?', a name over 100 characters (101 printable
# ones in a row), a name with any other character (CMake's regular expressions know no {n} and no
# \n, hence the repeated class and the line breaks in classes: a bracket argument in the generated
# file would drop a leading one).
set(caseLine "[\n] +(PASS|FAIL) ")
set(caseEnd " [0-9]+[.][0-9]+ s")
string(REPEAT "[ -~]" 101 overLimit)
set(DT_TEST_NAME_RULES
    "Invalid test name"
    "${caseLine}${overLimit}[ -~]*${caseEnd}"
    "${caseLine}[^\n]*[^\nA-Za-z0-9 _.,=+()-][^\n]*${caseEnd}")
