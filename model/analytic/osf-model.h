/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OSF_MODEL_H
#define OSF_MODEL_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup distributed-training
 * \brief Scaling factor of ring-AllReduce training with overlap and tensor fusion:
 * 004_87a6f364a233f56c.txt Sec. 2 (Eq. (1)-(16)) and Sec. 4.2 (Eq. (17)-(18)).
 *
 * Layers are numbered 1..n in forward order as in the seed (index i-1 in the vectors); the
 * backward pass runs from layer n down to 1 and time 0 is the end of layer n's backward.
 *
 * - TransferTime() is t_update(D), Eq. (7): 2(N-1)/(N beta) D + (N-1)/N D / R + delta, where
 *   R is the rate at which received bytes are reduced (the seed writes it pi s; R = 0 means
 *   free) and delta the per-AllReduce overhead; or the piecewise Eq. (18),
 *   a1 log2(D) + b1 below D_Thresh and a2 D + b2 above. Both give 0 for D = 0 (no AllReduce
 *   is launched) and for N = 1 (nothing to exchange).
 * - Comp() is T_comp, Eq. (4)-(5), taken from the profile (T_F + T_B) instead of FLOPs.
 * - Overlap() is Eq. (10), UpdateTime() Eq. (8)-(9), Osf() Eq. (3), StepTime() the step time
 *   it implies: T_comp + T_update - T_overlap.
 * - Csf() is the C2C baseline Eq. (2) with T_comm = t_update(M): everything in one AllReduce
 *   after the backward pass, as 004 Sec. 3.2 describes its CSF.
 * - Fusion() builds the buckets of Eq. (12)-(14) for a buffer size Q and a timeout;
 *   AdaFusion() decides each fusion with Eq. (17); FusionUpdateTime() is Eq. (15)-(16) and
 *   OsfFusion() Eq. (11).
 *
 * Where the printed equations disagree with each other or with the text, this class takes
 * (see doc/reference/backend-analytic.rst):
 * - Eq. (13) tests t_backward^(i) > timeout where the text and Eq. (12), (14) test layer i-1:
 *   we use t_backward^(i-1) > timeout throughout (Eq. (12)'s >= becomes >, as in (13), (14));
 * - Eq. (14) waits t_backward^(i-1) whenever the next layer does not fit; we do not wait when
 *   the buffer is already full (B^(i) >= Q: nothing more can fit), so that Q = 0 is exactly
 *   "no fusion" (Eq. (8)), as Q = 0 means in Horovod and PyTorch;
 * - Eq. (15) sums t_backward from j = 1; Eq. (8) and the text ("the completion time of backward
 *   pass of layer i") sum from j = i, which we use;
 * - the first bucket (the one holding layer n) may have its own size (PyTorch DDP's 1 MB).
 */
class OsfModel
{
  public:
    /// Which formula gives t_update(D).
    enum TransferModel
    {
        LINEAR,    //!< Eq. (7)
        PIECEWISE, //!< Eq. (18)
    };

    /// Coefficients of Eq. (18) (seconds, bytes).
    struct Piecewise
    {
        double a1{0};        //!< s per log2(byte), below the threshold
        double b1{0};        //!< s, below the threshold
        double a2{0};        //!< s per byte, at or above the threshold
        double b2{0};        //!< s, at or above the threshold
        double threshold{0}; //!< D_Thresh, bytes (the bandwidth-delay product)
    };

    /// The model's inputs.
    struct Params
    {
        uint32_t workers{1};            //!< N
        double bandwidth{0};            //!< beta, bytes/s between neighbours
        double reductionRate{0};        //!< R, bytes/s of reducing received data (0 = free)
        double overhead{0};             //!< delta, s per AllReduce
        double extraPerByte{0};         //!< s/byte added to t_update (intra-node; 0 in the seed)
        double extraPerOperation{0};    //!< s added to t_update (intra-node; 0 in the seed)
        std::vector<double> layerBytes; //!< D^(i), forward order
        std::vector<double> forward;    //!< t_forward^(i) (s), forward order
        std::vector<double> backward;   //!< t_backward^(i) (s), forward order
        TransferModel transferModel{LINEAR}; //!< Eq. (7) or Eq. (18)
        Piecewise piecewise;                 //!< Eq. (18) coefficients
    };

    /// Buckets of one step: which layers are sent together, and when.
    struct FusionPlan
    {
        std::vector<double> buffered; //!< B^(i): bytes in the buffer after adding layer i
        std::vector<double> sent;     //!< F^(i): bytes sent after layer i (0 = kept)
        std::vector<double> wait;     //!< t_wait^(i) before sending F^(i)
        std::vector<bool> flush;      //!< whether the buffer is sent after layer i
        uint32_t operations{0};       //!< AllReduce operations (flushes of a non-empty buffer)
    };

    /**
     * \param params the inputs
     * \throws TrainingInputError if N = 0, beta <= 0, there is no layer, the vectors differ in
     *         length, or a value is negative or not finite
     */
    explicit OsfModel(const Params& params);

    /**
     * \brief Eq. (7) of 004 (or Eq. (18) with PIECEWISE).
     * \param bytes D
     * \return t_update(D) (s)
     */
    double TransferTime(double bytes) const;
    /**
     * \brief Eq. (7) of 004, whatever the transfer model.
     * \param bytes D
     * \return t_update(D) (s)
     */
    double LinearTransferTime(double bytes) const;

    /** \return T_comp = T_F + T_B (s), Eq. (4) */
    double Comp() const;
    /** \return T_overlap, Eq. (10) (s) */
    double Overlap() const;
    /** \return tau^(i), Eq. (8), forward order (s) */
    std::vector<double> StartTimes() const;
    /** \return T_update, Eq. (9) (s) */
    double UpdateTime() const;
    /** \return OSF, Eq. (3) */
    double Osf() const;
    /** \return T_comp + T_update - T_overlap (s) */
    double StepTime() const;
    /** \return T_comm = t_update(M) (s) */
    double CommTime() const;
    /** \return CSF, Eq. (2) */
    double Csf() const;
    /** \return T_comp + T_comm (s) */
    double CsfStepTime() const;

    /**
     * \brief Eq. (12)-(14).
     * \param bufferBytes Q (infinity: one bucket)
     * \param firstBufferBytes size of the first bucket (0: Q)
     * \param timeout timeout (s; infinity: none)
     * \return the buckets
     */
    FusionPlan Fusion(double bufferBytes, double firstBufferBytes, double timeout) const;
    /**
     * \brief adaFusion, Eq. (17): layer i joins the buffer when
     * t_update(B^(i+1) + D^(i)) + t_backward^(i) < t_update(B^(i+1)) + t_update(D^(i)); a
     * buffer that layer i does not join is sent at once (t_wait = 0).
     * \return the buckets
     */
    FusionPlan AdaFusion() const;
    /**
     * \param plan buckets from Fusion() or AdaFusion()
     * \return tau^(i), Eq. (15), forward order (s)
     */
    std::vector<double> FusionStartTimes(const FusionPlan& plan) const;
    /**
     * \param plan buckets
     * \return T_update^fusion, Eq. (16) (s)
     */
    double FusionUpdateTime(const FusionPlan& plan) const;
    /**
     * \param plan buckets
     * \return OSF_fusion, Eq. (11)
     */
    double OsfFusion(const FusionPlan& plan) const;
    /**
     * \param plan buckets
     * \return T_comp + T_update^fusion - T_overlap (s)
     */
    double FusionStepTime(const FusionPlan& plan) const;

    /**
     * \brief Default coefficients for Eq. (18) when none were fitted: the linear part is
     * Eq. (7) (a2 = its per-byte cost, b2 = its fixed cost); the logarithmic part runs from
     * t = b2 at 1 byte to the linear part's value at the threshold, so the model is continuous
     * and never below Eq. (7) for small tensors (slow start only adds time).
     * \param params the inputs (N, beta, R, delta)
     * \param threshold D_Thresh (bytes)
     * \return the coefficients
     */
    static Piecewise DefaultPiecewise(const Params& params, double threshold);

    /** \return the inputs */
    const Params& GetParams() const;

  private:
    /**
     * \param update a T_update (s)
     * \return T_comp + T_update - T_overlap
     */
    double StepTimeOf(double update) const;

    Params m_params; //!< inputs
};

} // namespace ns3

#endif /* OSF_MODEL_H */
