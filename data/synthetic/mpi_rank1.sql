-- SYNTHETIC fixture, hand-made from the documented nsys schema; not measured data.
-- MPI rank 1 of two (mpi_rank0.sql + mpi_rank1.sql, two hosts): MPI_RANKS, MPI_P2P_EVENTS,
-- MPI_COLLECTIVES_EVENTS, MPI_START_WAIT_EVENTS, MPI_OTHER_EVENTS (MPI_Init, MPI_Finalize), one CUDA kernel.
-- Schema 3.16.1 (nsys 2024.6).
-- CREATE TABLE statements are copied from real exports (sqlite3 .schema of shared/data/nsys/*.sqlite) or,
-- for tables none of them has, from NVIDIA's documented export schema. Times are ns since the session start.

PRAGMA foreign_keys = OFF;
BEGIN;
-- @include schema_common.sql
-- @include schema_3_16.sql
-- @include schema_mpi.sql


-- MPI rank 1 of a 2-rank run (the other rank is mpi_rank0.sql, on another host). pid 7000, like rank 0, but on
-- its own host; globalPid = (1 << 48) | (7000 << 24), main thread tid 7000.
-- Session start (UTC) 1700000200000003000, 3000 ns after rank 0's; MPI_Init ends at 46500 local time.
INSERT INTO StringIds VALUES
    (1, 'cudaLaunchKernel_v7000'),
    (2, 'halo_pack_kernel'),
    (3, 'MPI_Init'),
    (4, 'MPI_Finalize'),
    (5, 'MPI_Send'),
    (6, 'MPI_Isend'),
    (7, 'MPI_Recv'),
    (8, 'MPI_Irecv'),
    (9, 'MPI_Wait'),
    (10, 'MPI_Allreduce'),
    (11, 'MPI_Comm_rank'),
    (12, 'synthetic_mpi');
INSERT INTO META_DATA_EXPORT VALUES
    ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_PRODUCT_VERSION', '2024.6.2.25'),
    ('EXPORT_SCHEMA_VERSION', '3.16.1'),
    ('EXPORT_SCHEMA_VERSION_MAJOR', '3'),
    ('EXPORT_SCHEMA_VERSION_MINOR', '16'),
    ('EXPORT_SCHEMA_VERSION_MICRO', '1'),
    ('EXPORT_PARAM_INPUT_FILE', 'SYNTHETIC_mpi_rank1.nsys-rep');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000200000003000, '2023-11-14T22:16:40', '2023-11-14T22:16:40');
INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'Hostname', 619, 'synth-host-alpha');
INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, 98000, 0, 98000);
INSERT INTO PROCESSES VALUES (281592417222656, 7000, 'synthetic_mpi');
INSERT INTO ThreadNames VALUES (12, 20, 281592417229656);

-- start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (47000, 47500, 0, 281592417229656, 1, 1, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, streamId, correlationId,
    globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY, gridZ,
    blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId,
    sharedMemoryExecuted, graphNodeId, sharedMemoryLimitConfig) VALUES
    (48000, 53000, 0, 1, NULL, 7, 1, 281592417222656, 2, 2, NULL, 1, 0, 32, 512, 1, 1, 256, 1, 1, 0, 0, 0, 0, 1, 0, NULL, 0);

INSERT INTO MPI_RANKS VALUES (281592417229656, 1);
-- start, end, globalTid, textId
INSERT INTO MPI_OTHER_EVENTS VALUES
    (2000, 46500, 281592417229656, 3),
    (46700, 46800, 281592417229656, 11),
    (96500, 97500, 281592417229656, 4);
-- start, end, globalTid, textId, commHandle, tag, remoteRank, size, requestHandle (1140850688 = MPI_COMM_WORLD)
INSERT INTO MPI_P2P_EVENTS VALUES
    (55000, 57500, 281592417229656, 7, 1140850688, 17, 0, 4096, NULL),
    (57600, 57700, 281592417229656, 8, 1140850688, 18, 0, 1024, 4000),
    (66000, 66300, 281592417229656, 5, 1140850688, 19, 0, 256, NULL);
-- start, end, globalTid, textId, requestHandle
INSERT INTO MPI_START_WAIT_EVENTS VALUES (57800, 58000, 281592417229656, 9, 4000);
-- start, end, globalTid, textId, commHandle, rootRank, size, recvSize, requestHandle
INSERT INTO MPI_COLLECTIVES_EVENTS VALUES (86000, 91500, 281592417229656, 10, 1140850688, NULL, 8, 8, NULL);
COMMIT;
