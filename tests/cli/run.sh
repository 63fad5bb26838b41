#!/bin/sh
# SPDX-License-Identifier: MIT
echo "0 passed, 0 failed"
