#!/bin/sh
# The `command:` target of cases/command.yaml: reads the question on stdin, prints the answer on stdout.
# A non-zero exit makes the case `errored`, not `failed`.
question=$(tr '[:upper:]' '[:lower:]')
case "$question" in
  *hour* | *open*) echo "We are open 9:00-17:00, Monday to Friday." ;;
  *return*) echo "You can return any item within 30 days for a full refund." ;;
  *ship*) echo "Shipping is free on orders over \$50." ;;
  *) echo "Sorry, I can only answer questions about opening hours, returns and shipping." ;;
esac
