#!/bin/sh
# A driver stand-in for the validation runner's tests: exits 0 after writing a result file
# without result rows (the runner must count the job as failed, not as a result).
for a in "$@"; do
    case "$a" in
        --output=*) printf '{"results": []}\n' > "${a#--output=}" ;;
    esac
done
exit 0
