d=$(mktemp -d) && cd "$d" && printf "top {\n keys {\n  detail = \"Enter, F77\"\n }\n}\n" >top.conf && PRIO_TOOLS_CONF=top.conf prio-top --list-keys; s=$?; rm -rf "$d"; exit $s
