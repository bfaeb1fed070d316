/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_PROFILE_H
#define TRAINING_PROFILE_H

#include "ns3/nstime.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \defgroup distributed-training Distributed DNN training
 * Parameter-server and ring-AllReduce training of deep neural networks, with packet-level,
 * flow-level and analytical backends that share one scenario and one result type.
 */

/**
 * \ingroup distributed-training
 * \brief One training step of a DNN on one worker, layer by layer (the input of every backend).
 *
 * A layer is a module that owns trainable parameters (convolution, batch norm, fully connected
 * ...), in the order the forward pass executes them; the parameter-free operations that run after
 * it (activation, pooling, residual add) are counted in its times. For each layer the profile
 * holds its parameter bytes (the size of the tensor a parameter server sends down and the
 * gradient a worker sends up), its forward and backward compute times on the worker, and the time
 * a parameter server needs to apply its gradient. These are the per-operation fields (size, dur)
 * of the profiling trace of Algorithm 1 in 000_466ded720105ddf3.txt (Sec. 2.2.1) and the per-layer
 * inputs of 004_87a6f364a233f56c.txt Eq. (3)-(10).
 *
 * Optionally the profile holds the worker's own whole-model optimizer step (worker_update_us):
 * what a data-parallel worker (PyTorch DDP, Horovod) runs after the AllReduce, measured on the
 * device that ran forward and backward (the per-layer update_us of a derived GPU profile is the
 * CPU's, a server's time, not a GPU worker's).
 *
 * Optionally the profile holds per-step samples of all times (one value per layer per recorded
 * step): the seeds build synthetic traces by drawing recorded steps with replacement (000 Sec.
 * 2.2.2, 001 Sec. 3.1), which keeps workers out of lockstep.
 *
 * The JSON format is specified in traces/README.md. Loading validates everything and throws
 * TrainingInputError with the file name, the JSON path and what was expected; it never aborts.
 * Times are kept in microseconds as doubles so that a saved profile loads back bit for bit.
 */
class TrainingProfile
{
  public:
    /**
     * The per-sample shape of a layer, for models that count work and activations rather
     * than time it (002_a4ba19759bbbfe64.txt Sec. 4: neurons, connections, local or full
     * connectivity). Optional in the file: `traces/profile_model.py annotate` writes it.
     */
    struct Shape
    {
        double outputElements{0}; //!< activations per sample leaving the layer
        double macs{0};           //!< multiply-adds per sample of the layer's forward pass
        bool local{false};        //!< true: each output sees a window of the input (Conv2d)
        double halo{0};           //!< local: input fraction needed beyond a stripe, each side

        /**
         * \param other shape to compare with
         * \return true when every field is equal
         */
        bool operator==(const Shape& other) const;
    };

    /// One layer of the profile.
    struct Layer
    {
        std::string name;    //!< unique name, e.g. "layer1.0.conv1"
        std::string type;    //!< module type, e.g. "Conv2d" (may be empty)
        uint64_t paramBytes; //!< bytes of the layer's trainable parameters
        double forwardUs;    //!< mean forward time, microseconds
        double backwardUs;   //!< mean backward time, microseconds
        double updateUs;     //!< mean parameter-server update time, microseconds
        /// the layer's shape, if the file gives it (output_elements, macs, local, halo)
        std::optional<Shape> shape{};

        /**
         * \param other layer to compare with
         * \return true when every field is equal
         */
        bool operator==(const Layer& other) const;
    };

    /// The compute times of one step, one value per layer (microseconds).
    struct StepTimes
    {
        std::vector<double> forwardUs;  //!< forward time of each layer
        std::vector<double> backwardUs; //!< backward time of each layer
        std::vector<double> updateUs;   //!< update time of each layer

        /**
         * \param other step to compare with
         * \return true when every value is equal
         */
        bool operator==(const StepTimes& other) const;
    };

    /// Largest accepted model: 10^12 bytes (1 TB) of parameters.
    static constexpr uint64_t MAX_TOTAL_BYTES = 1000000000000ULL;
    /// Largest accepted time of one layer in one step: one hour, in microseconds.
    static constexpr double MAX_LAYER_TIME_US = 3600e6;
    /// Value of the "format" key of every profile file.
    static const char* const FORMAT_NAME;
    /// Version of the file format written by SaveToFile().
    static constexpr int FORMAT_VERSION = 1;

    /// An empty profile; fill it with the setters and AddLayer(), then Validate().
    TrainingProfile();

    /**
     * \brief Load and validate a profile file.
     * \param path file name
     * \return the profile
     * \throws TrainingInputError naming the file and JSON path of the first problem found
     */
    static TrainingProfile LoadFromFile(const std::string& path);

    /**
     * \brief Parse and validate a profile held in a string.
     * \param text JSON text
     * \param source name used in error messages (usually the file name)
     * \return the profile
     * \throws TrainingInputError naming the source and JSON path of the first problem found
     */
    static TrainingProfile LoadFromString(const std::string& text, const std::string& source);

    /**
     * \brief Serialize the profile (times written as *_us).
     * \return JSON text that LoadFromString() reads back into an equal profile
     */
    std::string ToJson() const;

    /**
     * \brief Write ToJson() to a file.
     * \param path file name
     * \throws TrainingInputError if the profile is invalid or the file cannot be written
     */
    void SaveToFile(const std::string& path) const;

    /**
     * \brief Check every rule of the format (see traces/README.md).
     * \param source name used in error messages
     * \throws TrainingInputError on the first violation
     */
    void Validate(const std::string& source = "profile") const;

    /** \param model the model's name, e.g. "resnet50" */
    void SetModel(const std::string& model);
    /** \param batchSize samples per step on one worker */
    void SetBatchSize(uint32_t batchSize);
    /**
     * \param provenance a JSON object (text) with at least "device", "framework", "method"
     *        (strings) and "derived" (boolean)
     */
    void SetProvenance(const std::string& provenance);
    /** \param layer the next layer in forward order */
    void AddLayer(const Layer& layer);
    /** \param sample one recorded step, one value per layer in each vector */
    void AddSample(const StepTimes& sample);
    /**
     * \brief Set the worker's own whole-model optimizer step (file keys worker_update_us and
     * worker_update_provenance): what a ring worker runs after its last bucket's AllReduce.
     * \param us its time, microseconds
     * \param provenance where the time comes from (non-empty)
     */
    void SetWorkerUpdate(double us, const std::string& provenance);
    /**
     * \brief Multiply every compute time (forward, backward, update; means and recorded
     * steps) by a factor: the compute of a time-dilated run (PacketBackend's Dilation).
     * \param factor the factor (> 0)
     */
    void ScaleComputeTimes(double factor);

    /** \return the model's name */
    const std::string& GetModel() const;
    /** \return samples per step on one worker */
    uint32_t GetBatchSize() const;
    /** \return the provenance object as JSON text */
    const std::string& GetProvenance() const;
    /**
     * \param key a top-level key of the provenance object
     * \return its value if it is a string, its JSON text otherwise, "" if absent
     */
    std::string GetProvenanceField(const std::string& key) const;
    /** \return true when some times are derived rather than measured (provenance "derived") */
    bool IsDerived() const;
    /** \return the file the profile was loaded from ("" if built in memory) */
    const std::string& GetSourceName() const;

    /** \return true when every layer has a Shape (the file was annotated) */
    bool HasShapes() const;

    /** \return the number of layers */
    std::size_t GetNLayers() const;
    /**
     * \param i layer index in forward order
     * \return the layer
     */
    const Layer& GetLayer(std::size_t i) const;
    /** \return all layers in forward order */
    const std::vector<Layer>& GetLayers() const;
    /** \return the number of recorded steps (0 when the profile has only means) */
    std::size_t GetNSamples() const;
    /**
     * \param k recorded step index
     * \return its times
     */
    const StepTimes& GetSample(std::size_t k) const;
    /** \return the mean step (the per-layer means) */
    StepTimes GetMeanStep() const;

    /** \return sum of the layers' parameter bytes (the model size M of the seeds) */
    uint64_t GetTotalParamBytes() const;
    /** \return sum of the mean forward times (T_F of 000 Eq. (7)-(11)) */
    Time GetForwardTime() const;
    /** \return sum of the mean backward times (T_B of 000 Eq. (7)-(11)) */
    Time GetBackwardTime() const;
    /** \return sum of the mean update times (the parameter-server time of one step) */
    Time GetUpdateTime() const;
    /**
     * \return true when the profile holds the worker's own optimizer step (worker_update_us;
     *         measured on the device that ran forward and backward)
     */
    bool HasWorkerUpdate() const;
    /** \return the worker's whole-model optimizer step, microseconds (0 when absent) */
    double GetWorkerUpdateUs() const;
    /** \return where the worker's optimizer step comes from ("" when absent) */
    const std::string& GetWorkerUpdateProvenance() const;
    /**
     * \brief Convert a time of the profile to ns-3 Time (rounded to the nearest ns-3 tick).
     * \param us microseconds
     * \return the time
     */
    static Time FromMicroseconds(double us);

    /**
     * \param other profile to compare with
     * \return true when everything, provenance included, is equal (the source name is not
     *         compared)
     */
    bool operator==(const TrainingProfile& other) const;

  private:
    /**
     * \param field a mean time of Layer (forwardUs, backwardUs or updateUs)
     * \return its sum over the layers
     */
    Time SumLayerTimes(double Layer::*field) const;

    std::string m_model;              //!< model name
    uint32_t m_batchSize;             //!< samples per step
    std::string m_provenance;         //!< provenance object, JSON text
    std::string m_source;             //!< file loaded from
    std::vector<Layer> m_layers;      //!< layers in forward order
    std::vector<StepTimes> m_samples; //!< recorded steps
    /// the worker's whole-model optimizer step, microseconds (none: not measured)
    std::optional<double> m_workerUpdateUs;
    std::string m_workerUpdateProvenance; //!< where m_workerUpdateUs comes from
};

} // namespace ns3

#endif /* TRAINING_PROFILE_H */
