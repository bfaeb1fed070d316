/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test runner for standalone builds of the distributed-training module (an installed ns-3 has no
 * test.py). It runs the TestSuites linked into it with ns-3's own TestRunner, so it takes the same
 * options: --suite=NAME, --list, --verbose, --fullness=QUICK|EXTENSIVE|TAKES_FOREVER, --help.
 */

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
