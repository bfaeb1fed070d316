/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "option-table.h"

namespace ns3
{

namespace option_table
{

ScenarioOptions::Option
Make(const std::string& name,
     OptionScope scope,
     const std::string& models,
     const std::string& def,
     const std::string& help,
     std::function<void(RunRequest&, const std::string&, const std::string&)> f)
{
    return {name, scope, models, def, help, std::move(f)};
}

} // namespace option_table

const std::vector<ScenarioOptions::Option>&
ScenarioOptions::GetOptions()
{
    static const std::vector<Option> options = []
    {
        std::vector<Option> o;
        option_table::AddOutputOptions(o);
        option_table::AddScenarioOptions(o);
        option_table::AddBackendOptions(o);
        option_table::AddStudyOptions(o);
        option_table::AddRunnerOptions(o);
        option_table::AddProgramOptions(o);
        return o;
    }();
    return options;
}

} // namespace ns3
